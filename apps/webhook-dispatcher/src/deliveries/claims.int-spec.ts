import { explainAnalyze, privateDatabase, rowsRead } from '@payments/testing';
import { DataSource } from 'typeorm';

import { database } from '../database/data-source';
import { claimParameters, claimStatement } from './deliveries.repository';

/** `count` deliveries spread over `endpoints` URLs. */
const insertDeliveries = (count: number, endpoints: number, status: string) =>
  `INSERT INTO webhooks.deliveries (id, business_id, event_id, event, event_data, target, url, status)
   SELECT gen_random_uuid()::text, 'claims', gen_random_uuid(), 'fundAccount.success', '{}', 'test',
     'http://claims.invalid/' || (n % ${endpoints}), '${status}'
   FROM generate_series(1, ${count}) AS n`;

describe('claiming deliveries', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => ({ dataSource, drop } = await privateDatabase(database)));
  afterAll(() => drop?.());

  it('reads each endpoint’s oldest waiting deliveries, not the backlog, with statistics taken while none waited', async () => {
    // A production server's autovacuum takes statistics in a quiet hour, over the deliveries kept
    // from earlier days, as here.
    await dataSource.query(insertDeliveries(50_000, 50, 'succeeded'));
    await dataSource.query('ANALYZE webhooks.deliveries');
    // Then a burst: 10,000 deliveries over 50 endpoints.
    await dataSource.query(insertDeliveries(10_000, 50, 'pending'));

    const plan = await explainAnalyze(
      dataSource,
      claimStatement,
      claimParameters({ count: 200, perEndpoint: 16, circuitThreshold: 10, leaseMs: 30_000 }),
    );

    expect(plan['Actual Rows']).toBe(200);
    // 16 candidates from each of 50 endpoints, the 200 picked, the endpoints walked: about 1,300.
    expect(rowsRead(plan, 'deliveries')).toBeLessThan(2_500);
  });
});
