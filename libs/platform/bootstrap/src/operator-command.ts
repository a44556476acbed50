import { PlatformEnv } from '@payments/platform-config';
import { AppDatabase, migrate, postgresOptions } from '@payments/platform-database';
import { DataSource } from 'typeorm';

import { loadEnvOrExit } from './bootstrap';

/** A usage error of an operator command: the message on stderr, exit code 2. */
export function fail(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 2;
}

/** Runs an operator command's main, reporting an unexpected failure with exit code 1. */
export function runCommand(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}

/**
 * An operator command's own small connection to its app's database, migrated first (a command
 * may run before the app ever has), and closed once `work` is done.
 */
export async function withAppDatabase<E extends PlatformEnv, T>(
  envClass: new () => E,
  database: AppDatabase,
  work: (dataSource: DataSource, env: E) => Promise<T>,
): Promise<T> {
  const env = loadEnvOrExit(envClass);
  const options = postgresOptions(env.DATABASE_URL, 2, database);
  await migrate(options);
  const dataSource = await new DataSource(options).initialize();
  try {
    return await work(dataSource, env);
  } finally {
    await dataSource.destroy();
  }
}
