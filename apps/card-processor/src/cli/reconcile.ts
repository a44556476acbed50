import 'reflect-metadata';

import { Logger, LoggerService } from '@nestjs/common';
import { commandOptions, fail, runCommand, usageOf, withAppDatabase } from '@payments/platform-bootstrap';

import { NetworkName } from '../card-network/card-network';
import { reconcileNetworks } from '../card-network/reconciliation/reconcile-networks';
import { formatReport } from '../card-network/reconciliation/reconciliation-report';
import { settlementDayOf } from '../card-network/reconciliation/settlement-totals';
import { Env } from '../config/env';
import { database } from '../database/data-source';

const networkNames: readonly NetworkName[] = ['sandbox', 'live'];

const commandLine = {
  script: 'reconcile',
  options: {
    date: { type: 'string', value: 'YYYY-MM-DD|yesterday', required: true },
    network: { type: 'string', value: networkNames.join('|') },
    json: { type: 'boolean' },
  },
  notes: `  --date is a settlement date (the Lagos calendar date); yesterday is the one before today in Lagos.
  Without --network, every network the CARD_NETWORK_* settings name. Run it as the schemas' owner
  (DATABASE_URL): it reads card-processor's records and outlet-service's ledger.
  Exit status: 0 when records, ledger and host agree; 3 when the report lists a difference.`,
} as const;

/** The exit status of a run that found a difference, apart from 1 (it failed) and 2 (how it was called). */
const differencesFound = 3;

/**
 * Reconciles a settlement date: card-processor's records of the host's answers, outlet-service's
 * ledger and the host's own totals (0500). Prints the report (docs/card-network.md, "Reconciliation")
 * and keeps it in card_processor.reconciliations.
 */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  const day = settlementDayOf(values.date.trim(), new Date());
  if (!day) return fail(`--date must be a date as YYYY-MM-DD, or yesterday\n${usageOf(commandLine)}`);
  const network = values.network as NetworkName | undefined;
  if (network !== undefined && !networkNames.includes(network)) {
    return fail(`--network must be one of ${networkNames.join(', ')}\n${usageOf(commandLine)}`);
  }
  Logger.overrideLogger(toStderr);
  const reports = await withAppDatabase(Env, database, (dataSource, env) =>
    reconcileNetworks(dataSource, env, day, { network }),
  );
  for (const report of reports) {
    process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : formatReport(report));
  }
  if (reports.some((report) => report.differences.length > 0)) process.exitCode = differencesFound;
}

/** The connections' warnings and errors (a refused connect, a reconnect) on stderr: stdout is the report's. */
const toStderr: LoggerService = {
  log: () => undefined,
  warn: (message: unknown, ...context: unknown[]) => line('warn', message, context),
  error: (message: unknown, ...context: unknown[]) => line('error', message, context),
};

function line(level: string, message: unknown, context: unknown[]): void {
  const text = [message, ...context].map((part) => (typeof part === 'string' ? part : JSON.stringify(part)));
  process.stderr.write(`${level}: ${text.join(' ')}\n`);
}

void runCommand('reconcile', main);
