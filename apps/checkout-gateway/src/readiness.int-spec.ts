import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@payments/platform-bootstrap';
import { loadEnv } from '@payments/platform-config';
import { grantsDigest, SchemaState } from '@payments/platform-database';
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
  let withheld: { id: number; timestamp: string; name: string };

  beforeAll(async () => {
    const privateDatabase = await privateDatabaseUrl(gatewayApp.database);
    drop = privateDatabase.drop;
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

  it("waits for a release that changes only its login's grants, which adds no migration, to be granted", async () => {
    const dataSource = app.get(DataSource);
    const { database: gateway } = gatewayApp;
    const newest = withheld.name;
    // The schema as the last release's run left it: the same migrations, that release's grants.
    await database.query(
      `COMMENT ON SCHEMA gateway IS 'migrated through ${newest} granting ${grantsDigest(gateway.grants)}'`,
    );
    const regranted = { ...gateway, grants: { ...gateway.grants, key_audit: ['SELECT'] as const } };
    expect(await new SchemaState(dataSource, regranted).behind()).toContain('has not finished granting');
    expect(await new SchemaState(dataSource, gateway).behind()).toBeNull();
  });
});
