import { Injectable } from '@nestjs/common';
import { Metrics } from '@payments/platform-metrics';
import { Gauge } from 'prom-client';

import { DeliveriesRepository, DueBacklog } from './deliveries.repository';

/**
 * The dispatcher's backlog, read from PostgreSQL on each scrape: what autoscaling scales on
 * (the backlog lives in the database, not on a Kafka topic) and what the alerts watch.
 */
@Injectable()
export class DeliveryMetrics {
  constructor(deliveries: DeliveriesRepository, metrics: Metrics) {
    let reading: { at: number; backlog: Promise<DueBacklog> } | undefined;
    // One query serves both gauges of a scrape.
    const backlog = () => {
      if (!reading || Date.now() - reading.at > 1000) reading = { at: Date.now(), backlog: deliveries.dueBacklog() };
      return reading.backlog;
    };
    const gauge = (name: string, help: string, read: (backlog: DueBacklog) => number) =>
      new Gauge({
        name,
        help,
        registers: [metrics.registry],
        async collect() {
          this.set(read(await backlog()));
        },
      });
    gauge('webhook_deliveries_due', 'Deliveries waiting to be sent now, across every business', ({ due }) => due);
    gauge(
      'webhook_oldest_due_delivery_age_seconds',
      'How long the oldest delivery due now has waited to be sent',
      ({ oldestSeconds }) => oldestSeconds,
    );
  }
}
