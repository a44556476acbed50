import { Injectable } from '@nestjs/common';
import { CardRefundRequestedV1Payload } from '@payments/contracts';
import { firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/** A row of card_processor.card_refunds; `approved` is null while the network decides. */
export interface CardRefundRow {
  refund_reference: string;
  business_id: string;
  payment_kind: 'checkout' | 'pos';
  payment_reference: string;
  amount: string;
  approved: boolean | null;
  decline_reason: string | null;
}

/** card_processor.card_refunds: each refund of a card payment, kept as its deduplication. */
@Injectable()
export class CardRefundsRepository {
  /** The refund, begun; false when it was begun already (a redelivery). */
  async beginOnce(em: EntityManager, refund: CardRefundRequestedV1Payload): Promise<boolean> {
    const begun = await firstRow<{ refund_reference: string }>(
      em,
      `INSERT INTO card_processor.card_refunds (refund_reference, business_id, payment_kind, payment_reference, amount)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING refund_reference`,
      [refund.refundReference, refund.businessId, refund.paymentKind, refund.paymentReference, refund.amount],
    );
    return begun !== undefined;
  }

  /** Decides a begun refund; undefined when it was decided already. */
  async decide(
    em: EntityManager,
    refundReference: string,
    approved: boolean,
    declineReason: string | null,
  ): Promise<CardRefundRow | undefined> {
    // TypeORM answers a raw UPDATE with [rows, affected].
    const [rows] = (await em.query(
      `UPDATE card_processor.card_refunds SET approved = $2, decline_reason = $3
       WHERE refund_reference = $1 AND approved IS NULL RETURNING *`,
      [refundReference, approved, declineReason],
    )) as [CardRefundRow[], number];
    return rows[0];
  }
}
