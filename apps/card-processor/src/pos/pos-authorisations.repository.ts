import { Injectable } from '@nestjs/common';
import { PosTransactionAcceptedV1Payload, PosTransactionDecidedV1Payload } from '@payments/contracts';
import { preparedQuery } from '@payments/platform-database';
import { OutboxRow } from '@payments/platform-outbox';
import { DataSource } from 'typeorm';

/** card_processor.pos_authorisations: the issuer's decision on each POS reference, kept as its deduplication. */
@Injectable()
export class PosAuthorisationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The reference's decision and its event, in one statement prepared once per connection. False
   * when the reference was decided already (a redelivery or a replayed submission): then no
   * event is queued.
   */
  async decideOnce(
    transaction: PosTransactionAcceptedV1Payload,
    decision: { approved: boolean; declineReason: string | null },
    event: OutboxRow<PosTransactionDecidedV1Payload>,
  ): Promise<boolean> {
    const decided = await preparedQuery<{ reference: string }>(
      this.dataSource,
      'card_processor.decide_pos_transaction',
      `WITH decided AS (
         INSERT INTO card_processor.pos_authorisations (reference, business_id, serial_number, outlet_id, amount, masked_pan, approved, decline_reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING reference
       ), event AS (
         INSERT INTO card_processor.outbox (id, topic, message_key, payload, headers) SELECT $9, $10, $11, $12, $13 FROM decided
       )
       SELECT reference FROM decided`,
      [
        transaction.reference,
        transaction.businessId,
        transaction.serialNumber,
        transaction.outletId,
        transaction.amount,
        transaction.maskedPan,
        decision.approved,
        decision.declineReason,
        event.id,
        event.topic,
        event.key,
        event.payload,
        event.headers,
      ],
    );
    return decided.length === 1;
  }
}
