import { Injectable } from '@nestjs/common';
import { PosTransactionAcceptedV1Payload } from '@payments/contracts';
import { EntityManager } from 'typeorm';

/** card_processor.pos_authorisations: the issuer's decision on each POS reference, kept as its deduplication. */
@Injectable()
export class PosAuthorisationsRepository {
  /** False when the reference was decided already: a redelivery or a replayed submission. */
  async insertOnce(
    em: EntityManager,
    transaction: PosTransactionAcceptedV1Payload,
    decision: { approved: boolean; declineReason: string | null },
  ): Promise<boolean> {
    const inserted = (await em.query(
      `INSERT INTO card_processor.pos_authorisations (reference, business_id, serial_number, outlet_id, amount, masked_pan, approved, decline_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING reference`,
      [
        transaction.reference,
        transaction.businessId,
        transaction.serialNumber,
        transaction.outletId,
        transaction.amount,
        transaction.maskedPan,
        decision.approved,
        decision.declineReason,
      ],
    )) as unknown[];
    return inserted.length === 1;
  }
}
