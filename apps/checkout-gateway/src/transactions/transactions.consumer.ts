import { Controller } from '@nestjs/common';
import {
  EventEnvelope,
  PartnerEventV1,
  PartnerEventV1Payload,
  Topics,
  TransactionEventData,
  TransactionEventDetails,
} from '@payments/contracts';
import { EventBatchHandler } from '@payments/platform-kafka';
import { DataSource } from 'typeorm';

import { RecordedTransaction, TransactionsRepository } from './transactions.repository';

/**
 * Keeps the transaction history from the partner events: every money event (one with a
 * transactionReference and an amount) records or updates its transaction, a partition's batch
 * before the offsets are committed: in one statement, or, when the batch holds several events
 * of one reference, in rounds of distinct references inside one database transaction.
 */
@Controller()
export class TransactionsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionsRepository,
  ) {}

  @EventBatchHandler(Topics.partnerEvents, 'bulk')
  async handleBatch(envelopes: EventEnvelope<PartnerEventV1Payload>[]): Promise<void> {
    const recorded = envelopes.flatMap((envelope) => {
      const transaction = envelope?.type === PartnerEventV1 ? transactionOf(envelope) : null;
      return transaction ? [transaction] : [];
    });
    const rounds = distinctRounds(recorded);
    if (rounds.length === 1) return this.transactions.record(this.dataSource.manager, rounds[0]);
    if (rounds.length > 1) {
      await this.dataSource.transaction(async (em) => {
        for (const round of rounds) await this.transactions.record(em, round);
      });
    }
  }
}

/** Splits events into rounds with one event per transaction each, keeping each transaction's events in order. */
export function distinctRounds(transactions: RecordedTransaction[]): RecordedTransaction[][] {
  const rounds: RecordedTransaction[][] = [];
  const seen = new Map<string, number>();
  for (const transaction of transactions) {
    const key = `${transaction.businessId}\u0000${transaction.kind}\u0000${transaction.reference}`;
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (rounds[round] ??= []).push(transaction);
  }
  return rounds;
}

/**
 * The family a transaction's reference belongs to: its product type, except that refund.*
 * events all describe refunds (money a card captured after its checkout ended is announced
 * as a `card` refund), so a refund's later events find its row.
 */
export function transactionKind(event: string, productType: string): string {
  return event.startsWith('refund.') ? 'refund' : productType;
}

/**
 * The outlets a money event names: the row's (the outlet of the wallet the money moved on; for
 * an internal transfer its destination's, or its source's when the destination belongs to no
 * outlet) and, for an internal transfer, its source's, by which the outletId filter finds it too.
 * Events made before they named these (payouts and transfers) name none.
 */
export function outletsOf(details: TransactionEventDetails | undefined): {
  outletId: string | null;
  sourceOutletId: string | null;
} {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const sourceOutletId = text(details?.sourceOutletId);
  return {
    outletId: text(details?.outletId) ?? text(details?.destinationOutletId) ?? sourceOutletId,
    sourceOutletId,
  };
}

export function transactionOf(envelope: EventEnvelope<PartnerEventV1Payload>): RecordedTransaction | null {
  const data = envelope.payload?.eventData as Partial<TransactionEventData> | undefined;
  if (!envelope.businessId || !data?.transactionReference || data.amount === undefined || !data.transactionType) {
    return null;
  }
  const productType = data.productType ?? 'unknown';
  return {
    businessId: envelope.businessId,
    eventId: envelope.eventId,
    event: envelope.payload.event,
    kind: transactionKind(envelope.payload.event, productType),
    reference: data.transactionReference,
    productType,
    transactionType: data.transactionType,
    transactionStatus: data.transactionStatus ?? 'SUCCESS',
    amount: data.amount,
    fee: data.fee ?? '0',
    commission: data.commission ?? '0',
    netAmount: data.netAmount ?? data.amount,
    transactionAccount: data.transactionAccount ?? '',
    ...outletsOf(data.details),
    sessionId: data.sessionId ?? null,
    customerReference: data.customerReference ?? null,
    comment: data.comment ?? null,
    createdAt: data.createdAt ?? envelope.occurredAt,
  };
}
