import { AppDatabase, migrate, postgresOptions } from '@payments/platform-database';
import { DataSource } from 'typeorm';

import { queryTestDatabase, testEnvironment, uniqueName } from './test-env';

/**
 * A migrated database of one app's schema for one suite, beside the shared test database: the
 * rows its statements touch, the statistics it takes and the workers it starts reach no other
 * suite, nor do other suites' workers reach its rows.
 */
export async function privateDatabaseUrl(database: AppDatabase): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = uniqueName('payments_private');
  const url = Object.assign(new URL(testEnvironment().DATABASE_URL ?? ''), { pathname: `/${name}` }).toString();
  await migrate(postgresOptions(url, 2, database));
  return { url, drop: () => queryTestDatabase(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined) };
}

/** privateDatabaseUrl, with a data source open on it. */
export async function privateDatabase(
  database: AppDatabase,
): Promise<{ dataSource: DataSource; drop: () => Promise<void> }> {
  const { url, drop } = await privateDatabaseUrl(database);
  const dataSource = await new DataSource(postgresOptions(url, 2, database)).initialize();
  return {
    dataSource,
    drop: async () => {
      await dataSource.destroy();
      await drop();
    },
  };
}
