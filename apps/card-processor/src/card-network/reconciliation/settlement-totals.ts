import { SettlementTotals, Tally } from '../card-network';
import { lagosDate } from '../lagos-time';
import { RequestPurpose, RequestState } from '../network-requests.repository';

/** One network request as reconciliation reads it: what it was for, and how it ended. Never its card. */
export interface RecordedRequest {
  id: string;
  purpose: RequestPurpose;
  paymentReference: string;
  businessId: string;
  rrn: string;
  kind: 'purchase' | 'refund';
  /** Kobo. */
  amount: bigint;
  state: RequestState;
  /** DE39 of the 0210, when one came. */
  responseCode: string | null;
  /** DE39 of the 0430: `00` the host reversed an approval it had, `25` it had none. */
  reversalCode: string | null;
}

/** Which of a 0500's tallies a request counts in, if any. */
export function tallyOf(request: RecordedRequest): keyof Omit<SettlementTotals, 'net'> | null {
  if (request.state === 'approved') return request.kind === 'purchase' ? 'purchases' : 'refunds';
  // Only a reversal the host answered 00 took an approval back; 25 says it had none to take.
  if (request.state === 'reversed' && request.reversalCode === '00' && request.kind === 'purchase') {
    return 'reversedPurchases';
  }
  return null;
}

/**
 * A settlement date's totals from its requests: approved purchases that stand, approved refunds,
 * purchases approved and then reversed, and the net of the first two. Declined requests, and
 * those whose outcome is still unknown, count in none of them.
 */
export function settlementTotals(requests: readonly RecordedRequest[]): SettlementTotals {
  const tallies: Record<keyof Omit<SettlementTotals, 'net'>, Tally> = {
    purchases: { count: 0, amount: 0n },
    refunds: { count: 0, amount: 0n },
    reversedPurchases: { count: 0, amount: 0n },
  };
  for (const request of requests) {
    const tally = tallyOf(request);
    if (!tally) continue;
    tallies[tally].count += 1;
    tallies[tally].amount += request.amount;
  }
  return { ...tallies, net: tallies.purchases.amount - tallies.refunds.amount };
}

const dayMs = 24 * 60 * 60 * 1000;
const isoDay = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * The settlement date an operator names: `YYYY-MM-DD`, or `yesterday`, the Lagos date before
 * today's (what the daily run reconciles after cut-over). Undefined for anything else.
 */
export function settlementDayOf(text: string, now: Date): string | undefined {
  if (text === 'yesterday') return lagosDate(new Date(now.getTime() - dayMs));
  if (!isoDay.test(text)) return undefined;
  // 2026-02-30 matches the pattern but is no date.
  return new Date(`${text}T00:00:00Z`).toISOString().startsWith(text) ? text : undefined;
}

/** DE15 of a settlement date: MMDD. */
export function settlementDateField(day: string): string {
  return day.slice(5, 7) + day.slice(8, 10);
}
