import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { Env } from '../../config/env';
import { CardNetwork, NetworkName } from '../card-network';
import { NetworkRequestsRepository } from '../network-requests.repository';
import { networksFromSettings } from '../network-settings';
import { OutletsLedger } from './ledger-bookings';
import { reconcile } from './reconciliation';
import { ReconciliationReport } from './reconciliation-report';
import { ReconciliationsRepository } from './reconciliations.repository';

export interface ReconcileOptions {
  /** One network; every network the settings name when absent. */
  network?: NetworkName;
  /** How long to wait for a connection to sign on before the 0500 is given up as unanswered. */
  readyTimeoutMs?: number;
}

/**
 * What `npm run reconcile` does: opens its own connections to the hosts the settings name (as
 * the app does, CARD_NETWORK_*), waits for one to sign on, reconciles the date on each network
 * and closes them. `dataSource` must read both card_processor and outlets: the schemas' owner.
 */
export async function reconcileNetworks(
  dataSource: DataSource,
  env: Env,
  day: string,
  options: ReconcileOptions = {},
): Promise<ReconciliationReport[]> {
  const requests = new NetworkRequestsRepository(dataSource);
  // The command's own registry: its connection metrics go nowhere.
  const networks = networksFromSettings(env, new Registry(), () => requests.nextStan());
  try {
    const chosen = networks.filter((network) => !options.network || network.name === options.network);
    if (chosen.length === 0) throw new Error(`the ${options.network} card network is not configured (CARD_NETWORK_*)`);
    await Promise.all(networks.filter((network) => !chosen.includes(network)).map((network) => network.close()));
    const sources = { records: new ReconciliationsRepository(dataSource), ledger: new OutletsLedger(dataSource) };
    const reports: ReconciliationReport[] = [];
    for (const network of chosen) {
      await signedOn(network, options.readyTimeoutMs ?? 30_000);
      reports.push(await reconcile({ ...sources, network, stans: () => requests.nextStan() }, day));
    }
    return reports;
  } finally {
    await Promise.all(networks.map((network) => network.close()));
  }
}

/** Resolves once a connection is signed on, or the time is up: a 0500 without one is answered "not sent". */
async function signedOn(network: CardNetwork, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!network.isReady() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}
