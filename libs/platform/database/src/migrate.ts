import { DataSource, DataSourceOptions } from 'typeorm';

import { grantSchemaToAppRole } from './app-role';
import { ensureDatabase } from './ensure-database';
import { markMigrated } from './schema-state';
import { TableGrants } from './table-grants';

export interface MigrateOptions {
  /** The login the app runs as; granted its schema as `grants` say, after the migrations. */
  appRole?: string;
  /** The app's AppDatabase.grants: what its role may do to each table. */
  grants?: TableGrants;
}

/**
 * Creates the database and the app's schema if needed and runs the app's pending migrations.
 * Several replicas may start at once: an advisory lock per schema lets one migrate while the
 * others wait, then find nothing left to do. With `appRole`, the login the app runs as is
 * granted its schema's tables as `grants` say, and nothing else (see grantSchemaToAppRole).
 */
export async function migrate(options: DataSourceOptions, { appRole, grants }: MigrateOptions = {}): Promise<string[]> {
  if (options.type !== 'postgres' || !options.url || !options.schema) {
    throw new Error('migrate needs a postgres url and schema');
  }
  if (appRole && !grants) throw new Error(`migrate needs the app's table grants to grant ${appRole} its schema`);
  await ensureDatabase(options.url);
  const dataSource = await new DataSource({ ...options, poolSize: 2 }).initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${options.schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (appRole && grants) await grantSchemaToAppRole(runner, options.schema, appRole, grants);
    const shipped = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
    await markMigrated(runner, options.schema, shipped);
    return applied.map((migration) => migration.name);
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${options.schema}`])
      .catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  }
}
