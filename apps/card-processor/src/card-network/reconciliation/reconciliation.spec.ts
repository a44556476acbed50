import { ReconciliationAnswer, ReconciliationRequest } from '../card-network';
import { Booking, LedgerBookings } from './ledger-bookings';
import { reconcile } from './reconciliation';
import { formatReport, ReconciliationReport } from './reconciliation-report';
import { RecordedRequest } from './settlement-totals';

let next = 0;
const request = (overrides: Partial<RecordedRequest> = {}): RecordedRequest => {
  next += 1;
  return {
    id: `R${next}`,
    purpose: 'pos',
    paymentReference: `POS-${next}`,
    businessId: 'B1',
    rrn: String(next).padStart(12, '0'),
    kind: 'purchase',
    amount: 2500n,
    state: 'approved',
    responseCode: '00',
    reversalCode: null,
    ...overrides,
  };
};
const bookingOf = (paid: RecordedRequest, amount = paid.amount): Booking => ({
  purpose: paid.purpose,
  paymentReference: paid.paymentReference,
  businessId: paid.businessId,
  amount,
  entryKind: paid.purpose,
  entryReference: paid.paymentReference,
});

/** A reconciliation over records, a ledger and a host held in memory. */
function run(
  requests: RecordedRequest[],
  booked: Booking[],
  host: ReconciliationAnswer = { answered: true, agreed: true, responseCode: '00' },
  unsent: Booking[] = [],
) {
  const sent: ReconciliationRequest[] = [];
  const recorded: ReconciliationReport[] = [];
  const ledger: LedgerBookings = {
    bookingsFor: async (payments) =>
      booked.filter((b) => payments.some((p) => p.purpose === b.purpose && p.paymentReference === b.paymentReference)),
    unsentCredits: async () => unsent,
  };
  const sources = {
    records: {
      requestsOn: async () => requests,
      record: async (report: ReconciliationReport) => void recorded.push(report),
    },
    ledger,
    network: {
      name: 'sandbox' as const,
      acquirerId: '111129',
      reconcile: async (message: ReconciliationRequest) => (sent.push(message), host),
    },
    stans: () => '000077',
    now: () => new Date('2026-03-10T00:30:00Z'),
  };
  return reconcile(sources, '2026-03-09').then((report) => ({ report, sent, recorded }));
}

describe('reconciling a settlement date', () => {
  it('sends the records’ totals for the date, and reports no difference when ledger and host agree', async () => {
    const paid = [request(), request({ purpose: 'checkout', amount: 150_000n })];
    const declined = request({ state: 'declined', responseCode: '05' });
    const reversed = request({ state: 'reversed', responseCode: null, reversalCode: '00', amount: 900n });
    const { report, sent, recorded } = await run(
      [...paid, declined, reversed],
      paid.map((p) => bookingOf(p)),
    );
    expect(sent).toEqual([
      {
        trace: { acquirerId: '111129', stan: '000077', transmittedAt: new Date('2026-03-10T00:30:00Z') },
        settlementDate: '0309',
        totals: {
          purchases: { count: 2, amount: 152_500n },
          refunds: { count: 0, amount: 0n },
          reversedPurchases: { count: 1, amount: 900n },
          net: 152_500n,
        },
      },
    ]);
    expect(report).toMatchObject({
      network: 'sandbox',
      settlementDate: '2026-03-09',
      records: { requests: 4, byState: { approved: 2, declined: 1, reversed: 1 } },
      totals: { net: 'C0000000000152500', purchases: { count: 2, amount: '152500' } },
      ledger: { bookings: 2, credited: '152500', paidBack: '0' },
      differences: [],
    });
    expect(recorded).toEqual([report]);
    expect(formatReport(report)).toContain('No differences.');
  });

  it('reports an approval the ledger missed, a credit for a decline, a reversal and an unsent payment, and amounts that differ', async () => {
    const missed = request();
    const declined = request({ state: 'declined', responseCode: '51' });
    const reversed = request({ state: 'reversed', responseCode: null, reversalCode: '25' });
    const short = request({ amount: 5000n });
    const pending = request({ state: 'unknown', responseCode: null });
    const refund = request({ purpose: 'refund', kind: 'refund', amount: 700n });
    const unsent = { ...bookingOf(request()), paymentReference: 'POS-NEVER-SENT' };
    const { report } = await run(
      [missed, declined, reversed, short, pending, refund],
      [bookingOf(declined), bookingOf(reversed), bookingOf(short, 4000n)],
      { answered: true, agreed: false, responseCode: '95' },
      [unsent],
    );
    expect(report.differences.map((d) => [d.kind, d.paymentReference ?? null])).toEqual([
      ['approved-not-booked', missed.paymentReference],
      ['booked-not-approved', declined.paymentReference],
      ['booked-not-approved', reversed.paymentReference],
      ['amounts-differ', short.paymentReference],
      ['unresolved', pending.paymentReference],
      ['approved-not-booked', refund.paymentReference],
      ['booked-not-approved', 'POS-NEVER-SENT'],
      ['host-disagrees', null],
    ]);
    expect(report.differences[1].why).toBe('booked, but the payment was declined (51)');
    expect(report.differences[3]).toMatchObject({ requested: '5000', booked: '4000', rrn: short.rrn });
    const text = formatReport(report);
    expect(text).toContain('8 differences:');
    expect(text).toContain(`approved-not-booked: the host approved the refund; the ledger paid nothing back`);
  });

  it('counts a host that never answered as a difference', async () => {
    const { report } = await run([], [], { answered: false, why: 'no connection to sandbox is signed on' });
    expect(report.differences).toEqual([
      { kind: 'host-not-answered', why: 'the host did not answer the 0500: no connection to sandbox is signed on' },
    ]);
    expect(formatReport(report)).toContain('Host (0510): no answer');
  });
});
