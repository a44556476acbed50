import { EventEnvelope, PartnerEventV1, PartnerEventV1Payload, TransactionEventDetails } from '@payments/contracts';

import { distinctRounds, outletsOf, transactionKind, transactionOf } from './transactions.consumer';
import { RecordedTransaction } from './transactions.repository';

const event = (businessId: string, reference: string, eventId: string, kind = 'refund') =>
  ({ businessId, kind, reference, eventId }) as RecordedTransaction;

describe('distinctRounds', () => {
  it('keeps a batch of distinct references in one round', () => {
    const batch = [event('b1', 'R1', 'e1'), event('b1', 'R2', 'e2'), event('b2', 'R1', 'e3')];
    expect(distinctRounds(batch)).toEqual([batch]);
  });

  it("puts a reference's later events in later rounds, in the order they came", () => {
    const [pending, other, processed, failed] = [
      event('b1', 'RF1', 'pending'),
      event('b1', 'RF2', 'other'),
      event('b1', 'RF1', 'processed'),
      event('b1', 'RF1', 'failed'),
    ];
    expect(distinctRounds([pending, other, processed, failed])).toEqual([[pending, other], [processed], [failed]]);
  });

  it('keeps transactions of different kinds that share a reference in one round: they are different rows', () => {
    const batch = [event('b1', 'RFD-1', 'refund'), event('b1', 'RFD-1', 'transfer', 'internal_transfer')];
    expect(distinctRounds(batch)).toEqual([batch]);
  });

  it('has no rounds for no events', () => {
    expect(distinctRounds([])).toEqual([]);
  });
});

describe('transactionKind', () => {
  it('is the product type, but every refund event is a refund, whatever product it names', () => {
    expect(transactionKind('internalTransfer.successful', 'internal_transfer')).toBe('internal_transfer');
    expect(transactionKind('checkout.success', 'checkout')).toBe('checkout');
    expect(transactionKind('refund.pending', 'card')).toBe('refund');
    expect(transactionKind('refund.processed', 'refund')).toBe('refund');
  });
});

describe('the outlets a transaction is recorded under', () => {
  const envelope = (event: string, productType: string, details: Record<string, unknown>) =>
    ({
      eventId: `event-${event}`,
      type: PartnerEventV1,
      businessId: 'b1',
      occurredAt: '2026-11-23T10:15:00.000Z',
      payload: {
        event,
        eventData: {
          productType,
          transactionReference: 'ref-1',
          amount: '4000',
          transactionType: 'DEBIT',
          transactionStatus: 'SUCCESS',
          createdAt: '2026-11-23T10:15:00.000Z',
          details,
        },
      },
    }) as unknown as EventEnvelope<PartnerEventV1Payload>;

  it("records a payout under its deposit wallet's outlet, as its event names it", () => {
    const payout = transactionOf(envelope('bankTransfer.success', 'payout', { walletId: 'w1', outletId: 'OUT-A' }));
    expect(payout).toMatchObject({ outletId: 'OUT-A', sourceOutletId: null });
  });

  it("records an internal transfer under its destination's outlet, and keeps its source's for the filter", () => {
    const between = envelope('internalTransfer.successful', 'internal_transfer', {
      sourceOutletId: 'OUT-A',
      destinationOutletId: 'OUT-B',
    });
    expect(transactionOf(between)).toMatchObject({ outletId: 'OUT-B', sourceOutletId: 'OUT-A' });
  });

  it("shows a transfer to a wallet of no outlet (the settlement wallet) under its source's outlet", () => {
    const toSettlement = envelope('internalTransfer.successful', 'internal_transfer', {
      sourceOutletId: 'OUT-A',
      destinationOutletId: null,
    });
    expect(transactionOf(toSettlement)).toMatchObject({ outletId: 'OUT-A', sourceOutletId: 'OUT-A' });
  });

  it('records no outlet for an event that names none, as payouts and transfers made before did not', () => {
    expect(outletsOf({ walletId: 'w1', journalEntryId: 'e1' })).toEqual({ outletId: null, sourceOutletId: null });
    expect(outletsOf(undefined)).toEqual({ outletId: null, sourceOutletId: null });
    // Not text: no outlet, rather than a row no filter can find.
    const odd = { outletId: 7, sourceOutletId: '' } as unknown as TransactionEventDetails;
    expect(outletsOf(odd)).toEqual({ outletId: null, sourceOutletId: null });
  });
});
