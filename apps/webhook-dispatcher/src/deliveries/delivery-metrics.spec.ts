import { Metrics } from '@payments/platform-metrics';

import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryMetrics } from './delivery-metrics';

describe('DeliveryMetrics', () => {
  it('exports the backlog autoscaling and the alerts read, from one query per scrape', async () => {
    let queries = 0;
    const deliveries = {
      dueBacklog: async () => {
        queries += 1;
        return { due: 7, oldestSeconds: 42.5 };
      },
    } as unknown as DeliveriesRepository;
    const metrics = new Metrics('webhook-dispatcher');
    new DeliveryMetrics(deliveries, metrics);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^webhook_deliveries_due(\{[^}]*\})? 7$/m);
    expect(text).toMatch(/^webhook_oldest_due_delivery_age_seconds(\{[^}]*\})? 42.5$/m);
    expect(queries).toBe(1);
  });
});
