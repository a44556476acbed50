import { distinctRounds, transactionKind } from './transactions.consumer';
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
