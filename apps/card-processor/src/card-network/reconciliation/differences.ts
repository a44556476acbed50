import { ReconciliationAnswer } from '../card-network';
import { RequestPurpose, RequestState } from '../network-requests.repository';
import { Booking } from './ledger-bookings';
import { RecordedRequest } from './settlement-totals';

/**
 * How a settlement date's records, ledger and host can differ:
 * - `approved-not-booked`: the host approved it, the ledger booked nothing for it;
 * - `booked-not-approved`: the ledger booked it, but the host declined it, it was reversed,
 *   its outcome is unknown, or no request was ever sent for it;
 * - `amounts-differ`: approved and booked, for different amounts;
 * - `unresolved`: its outcome is still unknown (its reversal unacknowledged) or it is in flight;
 * - `host-disagrees`: the 0510 said `95` (or another code than `00`);
 * - `host-not-answered`: no 0510 came (no connection, none in time).
 */
export type DifferenceKind =
  | 'approved-not-booked'
  | 'booked-not-approved'
  | 'amounts-differ'
  | 'unresolved'
  | 'host-disagrees'
  | 'host-not-answered';

/** One difference, with what names the payment (never its card) and why it is one. */
export interface Difference {
  kind: DifferenceKind;
  why: string;
  purpose?: RequestPurpose;
  paymentReference?: string;
  businessId?: string;
  rrn?: string;
  state?: RequestState;
  responseCode?: string | null;
  /** Kobo, as digits: what the network request was for, and what the ledger booked. */
  requested?: string;
  booked?: string;
  /** The journal entry, when there is one. */
  entry?: string;
}

const keyOf = (payment: { purpose: string; paymentReference: string }) =>
  `${payment.purpose}:${payment.paymentReference}`;

/** Each request of the date held against what the ledger booked for it, then the credits no request was sent for. */
export function transactionDifferences(
  requests: readonly RecordedRequest[],
  bookings: readonly Booking[],
  unsent: readonly Booking[],
): Difference[] {
  const booked = new Map(bookings.map((booking) => [keyOf(booking), booking]));
  const differences = requests.flatMap((request) => {
    const difference = differenceOf(request, booked.get(keyOf(request)));
    return difference ? [difference] : [];
  });
  for (const booking of unsent) {
    differences.push({
      kind: 'booked-not-approved',
      why: 'booked, but no request for it was ever sent to the card network',
      ...bookingFields(booking),
    });
  }
  return differences;
}

function differenceOf(request: RecordedRequest, booking: Booking | undefined): Difference | undefined {
  const fields = {
    purpose: request.purpose,
    paymentReference: request.paymentReference,
    businessId: request.businessId,
    rrn: request.rrn,
    state: request.state,
    responseCode: request.responseCode,
    requested: request.amount.toString(),
    ...(booking ? bookingFields(booking) : {}),
  };
  const what = request.kind === 'refund' ? 'refund' : 'payment';
  switch (request.state) {
    case 'approved':
      if (!booking) {
        const missing = request.kind === 'refund' ? 'paid nothing back' : 'booked no credit';
        return { kind: 'approved-not-booked', why: `the host approved the ${what}; the ledger ${missing}`, ...fields };
      }
      if (booking.amount !== request.amount) {
        return {
          kind: 'amounts-differ',
          why: `approved for ${request.amount}, booked for ${booking.amount}`,
          ...fields,
        };
      }
      return undefined;
    case 'declined':
    case 'reversed':
      if (!booking) return undefined;
      return { kind: 'booked-not-approved', why: `booked, but the ${what} ${endOf(request)}`, ...fields };
    case 'unknown':
    case 'sent':
      if (booking) {
        return { kind: 'booked-not-approved', why: `booked, but the ${what} ${endOf(request)}`, ...fields };
      }
      return { kind: 'unresolved', why: `the ${what} ${endOf(request)}`, ...fields };
  }
}

/** How a request that was not approved ended, in words. */
function endOf(request: RecordedRequest): string {
  switch (request.state) {
    case 'declined':
      return request.responseCode ? `was declined (${request.responseCode})` : 'never reached the host';
    case 'reversed':
      return request.reversalCode === '00'
        ? 'was reversed: the host had approved it and took it back'
        : `was reversed: the host had no approval to take back (${request.reversalCode ?? 'no code'})`;
    case 'unknown':
      return 'has an unknown outcome: its reversal is not acknowledged yet';
    case 'sent':
      return 'is still waiting for its answer';
    case 'approved':
      return 'was approved';
  }
}

function bookingFields(booking: Booking): Partial<Difference> {
  return {
    purpose: booking.purpose,
    paymentReference: booking.paymentReference,
    businessId: booking.businessId,
    booked: booking.amount.toString(),
    entry: `${booking.entryKind} ${booking.entryReference}`,
  };
}

/** The host's answer as a difference, unless it agreed. */
export function hostDifference(answer: ReconciliationAnswer): Difference | undefined {
  if (!answer.answered) return { kind: 'host-not-answered', why: `the host did not answer the 0500: ${answer.why}` };
  if (answer.agreed) return undefined;
  return {
    kind: 'host-disagrees',
    why: `the host answered ${answer.responseCode || 'without a code'}: its totals for the date are not these`,
    responseCode: answer.responseCode,
  };
}
