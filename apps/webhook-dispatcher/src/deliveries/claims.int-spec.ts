import { eventually, explainAnalyze, privateDatabase, queryTestDatabase, rowsRead } from '@payments/testing';
import { DataSource } from 'typeorm';

import { database } from '../database/data-source';
import { claimParameters, claimStatement, DeliveriesRepository, DeliveryRow } from './deliveries.repository';

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
      claimParameters('plans', { count: 200, perEndpoint: 16, circuitThreshold: 10, leaseMs: 30_000 }),
    );

    expect(plan['Actual Rows']).toBe(200);
    // 16 candidates from each of 50 endpoints, the 200 picked, the endpoints walked: about 1,300.
    expect(rowsRead(plan, 'deliveries')).toBeLessThan(2_500);
  });
});

describe('an endpoint and its slots across instances', () => {
  const limits = { count: 100, perEndpoint: 16, circuitThreshold: 10, leaseMs: 30_000 };
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  let deliveries: DeliveriesRepository;

  beforeAll(async () => {
    ({ dataSource, drop } = await privateDatabase(database));
    deliveries = new DeliveriesRepository(dataSource);
  });
  afterAll(() => drop?.());

  const finish = (rows: DeliveryRow[]) =>
    dataSource.query(`UPDATE webhooks.deliveries SET status = 'succeeded', lease_until = NULL WHERE id = ANY($1)`, [
      rows.map((row) => row.id),
    ]);

  it('leases an endpoint to one instance at a time, so replicas do not multiply its slots', async () => {
    await dataSource.query(insertDeliveries(40, 1, 'pending'));

    const first = await deliveries.claim('instance-a', limits);
    expect(first).toHaveLength(16);
    // Four of them delivered: instance a has room for four more, and instance b for none while a
    // still holds twelve (both sending would put eight in flight at once).
    await finish(first.slice(0, 4));
    expect(await deliveries.claim('instance-b', limits)).toHaveLength(0);
    const more = await deliveries.claim('instance-a', limits);
    expect(more).toHaveLength(4);

    // Once a holds none (its deliveries done, or its leases lapsed when it died), b takes over.
    await finish([...first.slice(4), ...more]);
    expect(await deliveries.claim('instance-b', limits)).toHaveLength(16);
    await dataSource.query(
      `UPDATE webhooks.deliveries SET lease_until = now() - interval '1 second' WHERE leased_by = 'instance-b'`,
    );
    expect(await deliveries.claim('instance-a', limits)).toHaveLength(16);
  });

  it('counts a lease taken before instances were named as another instance’s', async () => {
    await dataSource.query(`DELETE FROM webhooks.deliveries`);
    await dataSource.query(insertDeliveries(20, 1, 'pending'));
    await dataSource.query(
      `UPDATE webhooks.deliveries SET lease_until = now() + interval '30 seconds', leased_by = NULL
       WHERE id IN (SELECT id FROM webhooks.deliveries ORDER BY id LIMIT 2)`,
    );
    expect(await deliveries.claim('instance-a', limits)).toHaveLength(0);
  });

  it('lets instances claim one at a time, so two claiming at once do not both take an idle endpoint', async () => {
    await dataSource.query(`DELETE FROM webhooks.deliveries`);
    await dataSource.query(insertDeliveries(20, 1, 'pending'));
    // Instance a is claiming: it has leased four and not yet committed.
    const claiming = dataSource.createQueryRunner();
    await claiming.connect();
    await claiming.startTransaction();
    await claiming.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks.claims', 0))`);
    await claiming.query(claimStatement, claimParameters('instance-a', { ...limits, perEndpoint: 4 }));
    const [{ pid }] = (await claiming.query(`SELECT pg_backend_pid() AS pid`)) as [{ pid: number }];

    // Instance b claims meanwhile: it waits for a's claim, then sees a's leases. Without the wait
    // it would take the twelve rows a has not locked.
    let settled = false;
    const second = deliveries.claim('instance-b', limits).finally(() => (settled = true));
    await eventually(async () => {
      const [{ waiting }] = await queryTestDatabase<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`,
        [pid],
      );
      return waiting > 0 || settled ? true : undefined;
    });
    await claiming.commitTransaction();
    await claiming.release();
    expect(await second).toHaveLength(0);
  });
});
