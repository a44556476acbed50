import { migrate, postgresOptions } from '@payments/platform-database';
import { queryTestDatabase, testEnvironment, uniqueName } from '@payments/testing';
import { DataSource } from 'typeorm';

import { database } from '../database/data-source';
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

/** `count` deliveries spread over `endpoints` URLs. */
const insertDeliveries = (count: number, endpoints: number, status: string) =>
  `INSERT INTO webhooks.deliveries (id, business_id, event_id, event, event_data, target, url, status)
   SELECT gen_random_uuid()::text, 'claims', gen_random_uuid(), 'fundAccount.success', '{}', 'test',
     'http://claims.invalid/' || (n % ${endpoints}), '${status}'
   FROM generate_series(1, ${count}) AS n`;

// A database of its own: the statistics it takes, and the deliveries a claim takes, touch no other suite's.
describe('claiming deliveries', () => {
  const name = uniqueName('payments_claims');
  const url = Object.assign(new URL(testEnvironment().DATABASE_URL ?? ''), { pathname: `/${name}` }).toString();
  let dataSource: DataSource;

  beforeAll(async () => {
    await migrate(postgresOptions(url, 2, database));
    dataSource = await new DataSource(postgresOptions(url, 2, database)).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await queryTestDatabase(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('reads each endpoint’s oldest waiting deliveries, not the backlog, with statistics taken while none waited', async () => {
    // A production server's autovacuum takes statistics in a quiet hour, over the deliveries kept
    // from earlier days, as here.
    await dataSource.query(insertDeliveries(50_000, 50, 'succeeded'));
    await dataSource.query('ANALYZE webhooks.deliveries');
    // Then a burst: 10,000 deliveries over 50 endpoints.
    await dataSource.query(insertDeliveries(10_000, 50, 'pending'));

    const [
      {
        'QUERY PLAN': [explained],
      },
    ] = (await dataSource.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${claimStatement}`,
      claimParameters({ count: 200, perEndpoint: 16, circuitThreshold: 10, leaseMs: 30_000 }),
    )) as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];

    expect(explained.Plan['Actual Rows']).toBe(200);
    // 16 candidates from each of 50 endpoints, the 200 picked, the endpoints walked: about 1,300.
    expect(deliveryRowsRead(explained.Plan)).toBeLessThan(2_500);
  });
});
