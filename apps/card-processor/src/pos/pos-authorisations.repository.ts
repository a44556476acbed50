import { Injectable } from '@nestjs/common';
import { PosTransactionAcceptedV1Payload } from '@payments/contracts';
import { firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/** A row of card_processor.pos_authorisations; `approved` is null while the network decides. */
export interface PosAuthorisationRow {
  reference: string;
  business_id: string;
  serial_number: string;
  outlet_id: string | null;
  amount: string;
  masked_pan: string;
  approved: boolean | null;
  decline_reason: string | null;
}

/** card_processor.pos_authorisations: each POS reference's authorisation, kept as its deduplication. */
@Injectable()
export class PosAuthorisationsRepository {
  /** The reference's authorisation, begun; false when it was begun already (a redelivery or a replay). */
  async beginOnce(em: EntityManager, transaction: PosTransactionAcceptedV1Payload): Promise<boolean> {
    const begun = await firstRow<{ reference: string }>(
      em,
      `INSERT INTO card_processor.pos_authorisations (reference, business_id, serial_number, outlet_id, amount, masked_pan, approved, decline_reason)
       VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL) ON CONFLICT DO NOTHING RETURNING reference`,
      [
        transaction.reference,
        transaction.businessId,
        transaction.serialNumber,
        transaction.outletId,
        transaction.amount,
        transaction.maskedPan,
      ],
    );
    return begun !== undefined;
  }

  /** Decides a begun authorisation; undefined when it was decided already. */
  async decide(
    em: EntityManager,
    reference: string,
    approved: boolean,
    declineReason: string | null,
  ): Promise<PosAuthorisationRow | undefined> {
    // TypeORM answers a raw UPDATE with [rows, affected].
    const [rows] = (await em.query(
      `UPDATE card_processor.pos_authorisations SET approved = $2, decline_reason = $3
       WHERE reference = $1 AND approved IS NULL RETURNING *`,
      [reference, approved, declineReason],
    )) as [PosAuthorisationRow[], number];
    return rows[0];
  }
}
