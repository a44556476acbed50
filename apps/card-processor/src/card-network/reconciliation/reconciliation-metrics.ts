import { Injectable } from '@nestjs/common';
import { Metrics } from '@payments/platform-metrics';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';

import { CardNetworks } from '../card-networks';
import { LatestReconciliation, ReconciliationsRepository } from './reconciliations.repository';

/**
 * Each network's latest reconciliation (run by `npm run reconcile`, not by the app), read from
 * PostgreSQL on each scrape: what CardNetworkReconciliationDifferences and
 * CardNetworkReconciliationMissing watch.
 */
@Injectable()
export class ReconciliationMetrics {
  constructor(dataSource: DataSource, networks: CardNetworks, metrics: Metrics) {
    const reconciliations = new ReconciliationsRepository(dataSource);
    let reading: { at: number; latest: Promise<LatestReconciliation[]> } | undefined;
    // One query serves both gauges of a scrape.
    const latest = () => {
      if (!reading || Date.now() - reading.at > 1000) {
        reading = { at: Date.now(), latest: reconciliations.latest(networks.all().map((network) => network.name)) };
      }
      return reading.latest;
    };
    new Gauge({
      name: 'card_network_reconciliation_differences',
      help: "Differences the network's latest reconciliation found (none until it has one)",
      labelNames: ['network'],
      registers: [metrics.registry],
      async collect() {
        this.reset();
        for (const { network, differences } of await latest()) {
          if (differences !== null) this.set({ network }, differences);
        }
      },
    });
    new Gauge({
      name: 'card_network_reconciliation_age_seconds',
      help: "Since the network's latest reconciliation ran; never run, since its first request",
      labelNames: ['network'],
      registers: [metrics.registry],
      async collect() {
        for (const { network, ageSeconds } of await latest()) this.set({ network }, ageSeconds);
      },
    });
  }
}
