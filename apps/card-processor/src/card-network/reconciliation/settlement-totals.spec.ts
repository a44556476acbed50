import { lagosDate, lagosDay } from '../lagos-time';
import { RecordedRequest, settlementDayOf, settlementTotals } from './settlement-totals';

let next = 0;
const request = (overrides: Partial<RecordedRequest>): RecordedRequest => ({
  id: `R${++next}`,
  purpose: 'pos',
  paymentReference: `POS-${next}`,
  businessId: 'B1',
  rrn: String(next).padStart(12, '0'),
  kind: 'purchase',
  amount: 1000n,
  state: 'approved',
  responseCode: '00',
  reversalCode: null,
  ...overrides,
});

describe('settlement totals', () => {
  it('counts approved purchases that stand, approved refunds, and purchases the host reversed', () => {
    const totals = settlementTotals([
      request({ amount: 2500n }),
      request({ amount: 150_000n, purpose: 'checkout' }),
      request({ kind: 'refund', purpose: 'refund', amount: 700n }),
      request({ state: 'reversed', responseCode: null, reversalCode: '00', amount: 4000n }),
    ]);
    expect(totals).toEqual({
      purchases: { count: 2, amount: 152_500n },
      refunds: { count: 1, amount: 700n },
      reversedPurchases: { count: 1, amount: 4000n },
      net: 151_800n,
    });
  });

  it('leaves out declines, reversals of nothing, outcomes still unknown, requests in flight and reversed refunds', () => {
    const totals = settlementTotals([
      request({ state: 'declined', responseCode: '05' }),
      request({ state: 'declined', responseCode: null }),
      request({ state: 'reversed', responseCode: null, reversalCode: '25' }),
      request({ state: 'unknown', responseCode: '00' }),
      request({ state: 'sent', responseCode: null }),
      request({ kind: 'refund', purpose: 'refund', state: 'reversed', reversalCode: '00' }),
    ]);
    expect(totals).toEqual({
      purchases: { count: 0, amount: 0n },
      refunds: { count: 0, amount: 0n },
      reversedPurchases: { count: 0, amount: 0n },
      net: 0n,
    });
  });

  it('nets refunds against purchases, below zero when the refunds are more', () => {
    const totals = settlementTotals([
      request({ amount: 1000n }),
      request({ kind: 'refund', purpose: 'refund', amount: 3000n }),
      request({ kind: 'refund', purpose: 'refund', amount: 500n }),
    ]);
    expect([totals.refunds, totals.net]).toEqual([{ count: 2, amount: 3500n }, -2500n]);
  });

  it('adds amounts beyond what a JavaScript number holds exactly', () => {
    const big = 9_007_199_254_740_993n;
    expect(settlementTotals([request({ amount: big }), request({ amount: 1n })]).purchases.amount).toBe(big + 1n);
  });
});

describe('settlement dates', () => {
  it('dates a moment by the Lagos calendar, an hour ahead of UTC', () => {
    expect(lagosDate(new Date('2026-03-09T22:59:59Z'))).toBe('2026-03-09');
    expect(lagosDate(new Date('2026-03-09T23:00:00Z'))).toBe('2026-03-10');
  });

  it('spans a Lagos day from 23:00 UTC the day before', () => {
    expect(lagosDay('2026-03-10')).toEqual({
      start: new Date('2026-03-09T23:00:00Z'),
      end: new Date('2026-03-10T23:00:00Z'),
    });
  });

  it('reads a date, or yesterday as the Lagos date before today, and nothing else', () => {
    // 23:30 UTC on the 9th is already the 10th in Lagos: yesterday is the 9th.
    const now = new Date('2026-03-09T23:30:00Z');
    expect(settlementDayOf('yesterday', now)).toBe('2026-03-09');
    expect(settlementDayOf('2026-01-01', now)).toBe('2026-01-01');
    expect(settlementDayOf('2026-02-30', now)).toBeUndefined();
    expect(settlementDayOf('0309', now)).toBeUndefined();
    expect(settlementDayOf('today', now)).toBeUndefined();
  });
});
