import { postgresOptions } from '@payments/platform-database';
import { DomainError } from '@payments/platform-envelope';
import { RateLimitOverrides, RateLimits, rateLimitTablesV1 } from '@payments/platform-rate-limit';
import { privateDatabase, PrivatePostgres } from '@payments/testing';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { Env } from '../config/env';
import { database } from '../database/data-source';
import { RateLimitKeys1763769600050 } from '../database/migrations/1763769600050-rate-limit-keys';
import { GatewayRateLimits } from './gateway-rate-limits';

jest.setTimeout(120_000);

const replies = () => ({ header: () => undefined });
const partnerApi = { name: 'partner-api', quota: 100, windowSeconds: 3600 };

/** Admits `count` requests at once, spread over `replicas`; resolves with how many were let through. */
async function admitted(replicas: RateLimits[], count: number, key: string): Promise<number> {
  const outcomes = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      replicas[i % replicas.length].admit(replies(), partnerApi, key).then(
        () => true,
        (error: unknown) => {
          if (error instanceof DomainError && error.code === 'RATE_LIMITED') return false;
          throw error;
        },
      ),
    ),
  );
  return outcomes.filter(Boolean).length;
}

describe('rate limits in PostgreSQL', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => ({ dataSource, drop } = await privateDatabase(database)));
  afterAll(() => drop());

  it('holds one quota across replicas counting at once, and never goes over it', async () => {
    const replicas = [0, 1, 2].map(() => new RateLimits(dataSource, 'gateway', new Registry()));
    const key = `key-${Date.now()}`;
    const first = await admitted(replicas, 400, key);
    // A window that ends mid-run starts a second one: run again until one run sees one window.
    const allowed = first > partnerApi.quota ? await admitted(replicas, 400, `${key}-again`) : first;
    expect(allowed).toBeLessThanOrEqual(partnerApi.quota);
    expect(allowed).toBeGreaterThanOrEqual(partnerApi.quota * 0.9);
  });

  it('counts each key on its own', async () => {
    const limits = new RateLimits(dataSource, 'gateway', new Registry());
    const small = { ...partnerApi, quota: 2 };
    const key = `key-${Date.now()}`;
    await limits.admit(replies(), small, key);
    await limits.admit(replies(), small, key);
    await expect(limits.admit(replies(), small, key)).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    await expect(limits.admit(replies(), small, `${key}-other`)).resolves.toBeUndefined();
  });

  it("applies an operator's override to the business, and the default again once cleared", async () => {
    const overrides = new RateLimitOverrides(dataSource, 'gateway', 0);
    await overrides.set('BUS-OVERRIDDEN', { name: 'partner-api', quota: 5, windowSeconds: 10 });
    expect(await overrides.policyFor(partnerApi, 'BUS-OVERRIDDEN')).toEqual({
      name: 'partner-api',
      quota: 5,
      windowSeconds: 10,
    });
    expect(await overrides.policyFor(partnerApi, 'BUS-OTHER')).toBe(partnerApi);
    expect(await overrides.clear('BUS-OVERRIDDEN', 'partner-api')).toBe(true);
    expect(await overrides.policyFor(partnerApi, 'BUS-OVERRIDDEN')).toBe(partnerApi);
    expect(await overrides.clear('BUS-OVERRIDDEN', 'partner-api')).toBe(false);
  });

  it('forgets windows once they have ended', async () => {
    await dataSource.query(
      `INSERT INTO gateway.rate_limit_windows (key, window_start, expires_at, used, granted)
       VALUES ('ended', now() - interval '2 hours', now() - interval '1 hour', 1, 1)`,
    );
    // Sweeping is a timer of the app; here, the statement it runs.
    const limits = new RateLimits(dataSource, 'gateway', new Registry());
    limits.startSweeping(10);
    await new Promise((resolve) => setTimeout(resolve, 100));
    limits.stopSweeping();
    expect(await dataSource.query(`SELECT 1 FROM gateway.rate_limit_windows WHERE key = 'ended'`)).toHaveLength(0);
  });
});

describe('what the rate limit tables keep of a partner', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => ({ dataSource, drop } = await privateDatabase(database)));
  afterAll(() => drop());

  /** Every row of the tables as text, as a dump of the database would show it. */
  async function dumped(): Promise<string[]> {
    const rows: { row: string }[] = await dataSource.query(
      `SELECT w::text AS row FROM gateway.rate_limit_windows w
       UNION ALL SELECT o::text FROM gateway.rate_limit_overrides o`,
    );
    return rows.map(({ row }) => row);
  }

  it("counts a key by its business and key id, under the business's override, and keeps no key", async () => {
    const env = Object.assign(new Env(), { RATE_LIMIT_PARTNER_API: '100/3600s', RATE_LIMIT_HOSTED_PAGE: 'off' });
    const limits = new GatewayRateLimits(new RateLimits(dataSource, 'gateway', new Registry()), env);
    const businessId = `BUS-${Date.now()}`;
    const [apiKey, rolledKey] = ['pk_test_4nY7rT2wQz9LmV3xK8sJ6pHd', 'pk_test_Zq81mWc5TgBv0XsLe3RkPoYu'];
    await new RateLimitOverrides(dataSource, 'gateway', 0).set(businessId, { ...partnerApi, quota: 2 });

    const outcomes = await Promise.all(
      [apiKey, apiKey, apiKey, rolledKey].map((key) =>
        limits.admitPartner(replies(), key, businessId).then(
          () => 'allowed',
          (error: DomainError) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'RATE_LIMITED')).toHaveLength(1);
    expect(outcomes[3]).toBe('allowed');

    const rows = await dumped();
    expect(rows.filter((row) => row.includes(businessId))).toHaveLength(3);
    for (const row of rows) expect(row).not.toMatch(/pk_|sk_/);
  });

  it('deletes the windows that hold a key in clear when migrating, and those an older instance writes after', async () => {
    const windows = async (...keys: string[]) => {
      for (const key of keys) {
        await dataSource.query(
          `INSERT INTO gateway.rate_limit_windows (key, window_start, expires_at, used, granted)
           VALUES ($1, date_trunc('hour', now()), date_trunc('hour', now()) + interval '1 hour', 1, 1)`,
          [key],
        );
      }
    };
    const keys = async () =>
      ((await dataSource.query(`SELECT key FROM gateway.rate_limit_windows`)) as { key: string }[]).map(
        ({ key }) => key,
      );
    const others = ['terminal:SN-1', 'hosted-page:203.0.113.7'];
    await windows('partner-api:pk_test_4nY7rT2wQz9LmV3xK8sJ6pHd', 'partner-api:pk_live_Zq81mWc5TgBv0XsL', ...others);
    const runner = dataSource.createQueryRunner();
    await new RateLimitKeys1763769600050().up(runner).finally(() => runner.release());
    expect(await keys()).toEqual(expect.arrayContaining(others));
    expect(await dumped()).not.toContainEqual(expect.stringMatching(/pk_|sk_/));

    const counted = 'partner-api:BUS-1:0123456789abcdef';
    await windows(counted, 'partner-api:pk_test_WrittenByAnOlderInstance00');
    const limits = new RateLimits(dataSource, 'gateway', new Registry());
    limits.startSweeping(10);
    await new Promise((resolve) => setTimeout(resolve, 100));
    limits.stopSweeping();
    expect(await keys()).toEqual(expect.arrayContaining([...others, counted]));
    expect(await dumped()).not.toContainEqual(expect.stringMatching(/pk_|sk_/));
  });
});

describe('rate limits when PostgreSQL is away', () => {
  const server = new PrivatePostgres(54_371);
  let dataSource: DataSource;

  beforeAll(async () => {
    await server.start();
    dataSource = await new DataSource(postgresOptions(server.url, 2, database)).initialize();
    await dataSource.query('CREATE SCHEMA gateway');
    for (const statement of rateLimitTablesV1('gateway')) await dataSource.query(statement);
  });
  afterAll(async () => {
    await dataSource?.destroy().catch(() => undefined);
    await server.destroy();
  });

  it('lets requests through, and counts that it could not check them', async () => {
    const registry = new Registry();
    const limits = new RateLimits(dataSource, 'gateway', registry, { storeTimeoutMs: 1000 });
    const small = { ...partnerApi, quota: 1 };
    await limits.admit(replies(), small, 'key-1');
    await expect(limits.admit(replies(), small, 'key-1')).rejects.toMatchObject({ code: 'RATE_LIMITED' });

    await server.stop();
    const headers: Record<string, unknown> = {};
    await expect(
      limits.admit({ header: (name: string, value: unknown) => (headers[name] = value) }, small, 'key-2', 'BUS-1'),
    ).resolves.toBeUndefined();
    expect(headers.RateLimit).toMatch(/^"partner-api";r=\d+;t=\d+$/);
    const metrics = await registry.getMetricsAsJSON();
    const failures = metrics.find((metric) => metric.name === 'rate_limit_store_failures_total');
    expect(failures?.values.reduce((sum, value) => sum + value.value, 0)).toBeGreaterThan(0);
    const decisions = metrics.find((metric) => metric.name === 'rate_limit_decisions_total');
    expect(decisions?.values).toContainEqual(
      expect.objectContaining({ labels: { limit: 'partner-api', outcome: 'unchecked' }, value: 1 }),
    );
  });
});
