import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@payments/platform-bootstrap';
import { loadEnv } from '@payments/platform-config';
import { grantSchemaToAppRole, SchemaState } from '@payments/platform-database';
import { privateDatabaseUrl, testEnvironment } from '@payments/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { gatewayApp } from './app';

/**
 * A release's migrations run in a Job while its pods start (docs/deploy.md): a pod whose schema
 * lacks a migration it ships must not take traffic, and takes it as soon as the schema has it.
 */
describe('readiness and the schema', () => {
  let app: NestFastifyApplication;
  let database: Client;
  let drop: () => Promise<void>;
  let privateUrl: string;
  let withheld: { id: number; timestamp: string; name: string };

  beforeAll(async () => {
    const privateDatabase = await privateDatabaseUrl(gatewayApp.database);
    drop = privateDatabase.drop;
    privateUrl = privateDatabase.url;
    database = new Client({ connectionString: privateDatabase.url });
    await database.connect();
    // As if the Job had not yet run the release's last migration.
    [withheld] = (
      await database.query(
        'DELETE FROM gateway.migrations WHERE id = (SELECT max(id) FROM gateway.migrations) RETURNING *',
      )
    ).rows;
    const env = loadEnv(
      gatewayApp.envClass,
      testEnvironment({ DATABASE_URL: privateDatabase.url, MIGRATE_ON_START: 'false' }),
    );
    app = await createApp({ ...gatewayApp, kafkaConsumer: false }, env);
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app?.close();
    await database?.end();
    await drop?.();
  });

  it('is refused, naming the migration, until the schema has it and its run has granted it, then ready', async () => {
    const before = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toMatchObject({
      status: false,
      data: {
        code: 'SERVICE_UNAVAILABLE',
        checks: { schema: { status: 'down', reason: expect.stringContaining(withheld.name) } },
      },
    });

    // The Job's run: the migration's row commits first, the login's grants after it.
    await database.query(`COMMENT ON SCHEMA gateway IS 'migrated through an earlier release'`);
    await database.query('INSERT INTO gateway.migrations (id, timestamp, name) VALUES ($1, $2, $3)', [
      withheld.id,
      withheld.timestamp,
      withheld.name,
    ]);
    const granting = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(granting.statusCode).toBe(503);
    expect(granting.json().data.checks.schema.reason).toContain('has not finished granting');

    await database.query(`COMMENT ON SCHEMA gateway IS 'migrated through ${withheld.name}'`);
    const after = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toMatchObject({ schema: { status: 'up' }, topics: { status: 'up' } });
  });

  it('reads the mark a release before this one wrote, which named a digest of its grants after the migration', async () => {
    await database.query(`COMMENT ON SCHEMA gateway IS 'migrated through ${withheld.name} granting 0123456789ab'`);
    expect(await new SchemaState(app.get(DataSource), gatewayApp.database).behind()).toBeNull();
  });

  it("waits for its login's own grants, whether or not a migration came with them", async () => {
    const { database: gateway } = gatewayApp;
    const role = `readiness_${process.pid}`;
    await database.query(`CREATE ROLE "${role}" LOGIN`);
    const owner = new DataSource({ type: 'postgres', url: privateUrl, schema: 'gateway' });
    const login = new URL(privateUrl);
    login.username = role;
    const asLogin = new DataSource({
      type: 'postgres',
      url: login.toString(),
      schema: 'gateway',
      migrations: gateway.migrations,
    });
    try {
      await owner.initialize();
      await asLogin.initialize();
      const runner = owner.createQueryRunner();
      await grantSchemaToAppRole(runner, 'gateway', role, gateway.grants);
      await runner.release();

      // A release that changes only the grants, whose run has not granted them yet.
      const widened = { ...gateway, grants: { ...gateway.grants, key_audit: ['SELECT', 'INSERT', 'DELETE'] as const } };
      expect(await new SchemaState(asLogin, widened).behind()).toBe(
        "the app's login is not yet granted 1 of its privileges, the first key_audit: DELETE",
      );
      const column = { ...gateway, grants: { ...gateway.grants, checkouts: ['SELECT', 'UPDATE (amount)'] as const } };
      expect(await new SchemaState(asLogin, column).behind()).toContain('the first checkouts: UPDATE (amount)');
      // This release's grants, and an earlier release's narrower ones (a rollback's pods).
      expect(await new SchemaState(asLogin, gateway).behind()).toBeNull();
      const narrower = { ...gateway, grants: { ...gateway.grants, card_attempts: ['SELECT'] as const } };
      expect(await new SchemaState(asLogin, narrower).behind()).toBeNull();
    } finally {
      await asLogin.destroy().catch(() => undefined);
      await owner.destroy().catch(() => undefined);
      await database.query(`DROP OWNED BY "${role}"`);
      await database.query(`DROP ROLE "${role}"`);
    }
  });
});
