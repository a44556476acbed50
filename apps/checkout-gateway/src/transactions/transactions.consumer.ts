import { Controller } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  EventEnvelope,
  PartnerEventV1,
  PartnerEventV1Payload,
  Topics,
  TransactionEventData,
} from '@payments/contracts';
import { EventBatchHandler } from '@payments/platform-kafka';
import { DataSource } from 'typeorm';

import { RecordedTransaction, TransactionsRepository } from './transactions.repository';

/**
 * Keeps the transaction history from the partner events: every money event (one with a
 * transactionReference and an amount) records or updates its transaction, a partition's batch
 * in one database transaction, before the offsets are committed.
 */
@Controller()
export class TransactionsConsumer {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionsRepository,
  ) {}

  @EventBatchHandler(Topics.partnerEvents, 'bulk')
  async handleBatch(envelopes: EventEnvelope<PartnerEventV1Payload>[]): Promise<void> {
    const recorded = envelopes.flatMap((envelope) => {
      const transaction = envelope?.type === PartnerEventV1 ? transactionOf(envelope) : null;
      return transaction ? [transaction] : [];
    });
    if (recorded.length === 0) return;
    await this.dataSource.transaction(async (em) => {
      for (const transaction of recorded) await this.transactions.record(em, transaction);
    });
  }
}

function transactionOf(envelope: EventEnvelope<PartnerEventV1Payload>): RecordedTransaction | null {
  const data = envelope.payload?.eventData as Partial<TransactionEventData> | undefined;
  if (!envelope.businessId || !data?.transactionReference || data.amount === undefined || !data.transactionType)
    return null;
  const details = (data.details ?? {}) as { outletId?: unknown };
  return {
    businessId: envelope.businessId,
    eventId: envelope.eventId,
    event: envelope.payload.event,
    reference: data.transactionReference,
    productType: data.productType ?? 'unknown',
    transactionType: data.transactionType,
    transactionStatus: data.transactionStatus ?? 'SUCCESS',
    amount: data.amount,
    fee: data.fee ?? '0',
    commission: data.commission ?? '0',
    netAmount: data.netAmount ?? data.amount,
    transactionAccount: data.transactionAccount ?? '',
    outletId: typeof details.outletId === 'string' ? details.outletId : null,
    sessionId: data.sessionId ?? null,
    customerReference: data.customerReference ?? null,
    comment: data.comment ?? null,
    createdAt: data.createdAt ?? envelope.occurredAt,
  };
}
