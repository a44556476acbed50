import { CardNetwork } from '../card-network';
import { StanSource } from '../connection';
import { hostDifference, transactionDifferences } from './differences';
import { LedgerBookings } from './ledger-bookings';
import { ReconciliationReport, reportOf } from './reconciliation-report';
import { ReconciliationsRepository } from './reconciliations.repository';
import { settlementDateField, settlementTotals } from './settlement-totals';

/** What a reconciliation reads, asks and writes. */
export interface ReconciliationSources {
  records: Pick<ReconciliationsRepository, 'requestsOn' | 'record'>;
  ledger: LedgerBookings;
  network: Pick<CardNetwork, 'name' | 'acquirerId' | 'reconcile'>;
  stans: StanSource;
  now?: () => Date;
}

/**
 * Reconciles one settlement date (YYYY-MM-DD) of one network: card-processor's records of the
 * host's answers, the totals they make sent to the host in a 0500, and the ledger's bookings
 * for the same payments, each transaction held against its booking. The run and its report are
 * recorded whatever they say; the report lists every difference.
 */
export async function reconcile(sources: ReconciliationSources, day: string): Promise<ReconciliationReport> {
  const { records, ledger, network } = sources;
  const now = sources.now ?? (() => new Date());
  const requests = await records.requestsOn(network.name, day);
  const totals = settlementTotals(requests);
  const bookings = await ledger.bookingsFor(requests);
  const unsent = await ledger.unsentCredits(network.name, day);
  const host = await network.reconcile({
    trace: { acquirerId: network.acquirerId, stan: await sources.stans(), transmittedAt: now() },
    settlementDate: settlementDateField(day),
    totals,
  });
  const differences = transactionDifferences(requests, bookings, unsent);
  const disagreement = hostDifference(host);
  if (disagreement) differences.push(disagreement);
  const report = reportOf({
    network: network.name,
    settlementDate: day,
    ranAt: now(),
    requests,
    totals,
    bookings: [...bookings, ...unsent],
    host,
    differences,
  });
  await records.record(report);
  return report;
}
