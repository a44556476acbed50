import { NetworkName, ReconciliationAnswer, SettlementTotals, Tally } from '../card-network';
import { netSettlementAmount } from '../iso8583/messages';
import { RequestState } from '../network-requests.repository';
import { Difference } from './differences';
import { Booking } from './ledger-bookings';
import { RecordedRequest, settlementDateField } from './settlement-totals';

interface ShownTally {
  count: number;
  /** Kobo, as digits. */
  amount: string;
}

/** A run's report, as it is printed, stored (reconciliations.report) and returned. Never a PAN. */
export interface ReconciliationReport {
  network: NetworkName;
  /** YYYY-MM-DD; DE15 is its MMDD. */
  settlementDate: string;
  ranAt: string;
  /** What card-processor recorded of the host's answers. */
  records: { requests: number; byState: Partial<Record<RequestState, number>> };
  /** The totals the 0500 carried; `net` as DE97. */
  totals: { purchases: ShownTally; refunds: ShownTally; reversedPurchases: ShownTally; net: string };
  /** What the ledger booked for the date's card payments and refunds, and credits no request was sent for. */
  ledger: { bookings: number; credited: string; paidBack: string };
  host: ReconciliationAnswer;
  /** Each transaction that differs, and the host's disagreement or silence; none when all agree. */
  differences: Difference[];
}

export interface ReportInputs {
  network: NetworkName;
  settlementDate: string;
  ranAt: Date;
  requests: readonly RecordedRequest[];
  totals: SettlementTotals;
  bookings: readonly Booking[];
  host: ReconciliationAnswer;
  differences: Difference[];
}

const shown = (tally: Tally): ShownTally => ({ count: tally.count, amount: tally.amount.toString() });

export function reportOf(inputs: ReportInputs): ReconciliationReport {
  const byState: Partial<Record<RequestState, number>> = {};
  for (const request of inputs.requests) byState[request.state] = (byState[request.state] ?? 0) + 1;
  const sum = (purpose: (p: string) => boolean) =>
    inputs.bookings.filter((b) => purpose(b.purpose)).reduce((total, b) => total + b.amount, 0n);
  return {
    network: inputs.network,
    settlementDate: inputs.settlementDate,
    ranAt: inputs.ranAt.toISOString(),
    records: { requests: inputs.requests.length, byState },
    totals: {
      purchases: shown(inputs.totals.purchases),
      refunds: shown(inputs.totals.refunds),
      reversedPurchases: shown(inputs.totals.reversedPurchases),
      net: netSettlementAmount(inputs.totals.net),
    },
    ledger: {
      bookings: inputs.bookings.length,
      credited: sum((purpose) => purpose !== 'refund').toString(),
      paidBack: sum((purpose) => purpose === 'refund').toString(),
    },
    host: inputs.host,
    differences: inputs.differences,
  };
}

/** The report as an operator reads it. Amounts are kobo. */
export function formatReport(report: ReconciliationReport): string {
  const { totals, records, ledger, host } = report;
  const tally = (label: string, t: ShownTally) => `    ${label.padEnd(34)}${String(t.count).padStart(8)}  ${t.amount}`;
  const states = Object.entries(records.byState)
    .map(([state, count]) => `${count} ${state}`)
    .join(', ');
  const hostLine = host.answered
    ? `${host.responseCode} (${host.agreed ? 'its totals agree' : 'its totals differ'})`
    : `no answer: ${host.why}`;
  const lines = [
    `Reconciliation of the ${report.network} card network, settlement date ${report.settlementDate} (DE15 ${settlementDateField(report.settlementDate)}), run ${report.ranAt}`,
    `  Records: ${records.requests} requests${states ? ` (${states})` : ''}`,
    `  Totals sent (0500):                    count  kobo`,
    tally('approved purchases (DE76, DE88)', totals.purchases),
    tally('approved refunds (DE74, DE86)', totals.refunds),
    tally('reversed purchases (DE77, DE89)', totals.reversedPurchases),
    `    net (DE97)                                  ${totals.net}`,
    `  Ledger: ${ledger.bookings} bookings, ${ledger.credited} kobo credited, ${ledger.paidBack} kobo paid back`,
    `  Host (0510): ${hostLine}`,
    report.differences.length === 0
      ? '  No differences.'
      : `  ${report.differences.length} difference${report.differences.length === 1 ? '' : 's'}:`,
    ...report.differences.map(formatDifference),
  ];
  return `${lines.join('\n')}\n`;
}

function formatDifference(difference: Difference): string {
  const named = [
    difference.purpose && difference.paymentReference ? `${difference.purpose} ${difference.paymentReference}` : null,
    difference.businessId ? `business ${difference.businessId}` : null,
    difference.rrn ? `RRN ${difference.rrn}` : null,
    difference.requested ? `requested ${difference.requested}` : null,
    difference.booked ? `booked ${difference.booked}` : null,
    difference.entry ? `entry ${difference.entry}` : null,
  ].filter(Boolean);
  return `    - ${difference.kind}: ${difference.why}${named.length ? ` [${named.join(', ')}]` : ''}`;
}
