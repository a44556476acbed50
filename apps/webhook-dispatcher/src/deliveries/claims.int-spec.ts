import { ulid } from 'ulid';

import { DispatcherFixture } from '../testing/dispatcher.fixture';
import { claimParameters, claimStatement } from './deliveries.repository';

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Rows of webhooks.deliveries a plan read: returned or filtered out, in every loop of every scan. */
function deliveryRowsRead(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'deliveries'
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + deliveryRowsRead(child), 0);
}

describe('claiming deliveries', () => {
  const fixture = new DispatcherFixture();

  beforeAll(() => fixture.start());
  afterAll(() => fixture.close());

  it('reads each endpoint’s oldest waiting deliveries, not the backlog, with statistics taken while none waited', async () => {
    const businessId = ulid();
    const insert = (count: number, endpoints: number, status: string) =>
      `INSERT INTO webhooks.deliveries (id, business_id, event_id, event, event_data, target, url, status)
       SELECT gen_random_uuid()::text, '${businessId}', gen_random_uuid(), 'fundAccount.success', '{}', 'test',
         'http://claims.invalid/' || (n % ${endpoints}), '${status}'
       FROM generate_series(1, ${count}) AS n`;
    // A production server's autovacuum takes statistics while the queue is empty, as here.
    await fixture.dataSource.query(insert(2000, 50, 'succeeded'));
    await fixture.dataSource.query('ANALYZE webhooks.deliveries');

    const runner = fixture.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      // A burst: 10,000 deliveries over 50 endpoints, unseen by the worker until committed (never).
      await runner.query(insert(10_000, 50, 'pending'));
      const [
        {
          'QUERY PLAN': [explained],
        },
      ] = (await runner.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${claimStatement}`,
        claimParameters({ count: 200, perEndpoint: 16, circuitThreshold: 10, leaseMs: 30_000 }),
      )) as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];

      // The 200 asked for, but for any deliveries other suites left waiting on this database.
      expect(explained.Plan['Actual Rows']).toBeGreaterThanOrEqual(150);
      // 16 candidates from each of 50 endpoints, the 200 picked, the endpoints walked: about 1,300.
      expect(deliveryRowsRead(explained.Plan)).toBeLessThan(2_500);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
