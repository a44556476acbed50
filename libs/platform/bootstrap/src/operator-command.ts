import { parseArgs, ParseArgsConfig } from 'node:util';

import { PlatformEnv } from '@payments/platform-config';
import { AppDatabase, migrate, postgresOptions } from '@payments/platform-database';
import { DataSource } from 'typeorm';

import { loadEnvOrExit } from './bootstrap';

/** A usage error of an operator command: the message on stderr, exit code 2. */
export function fail(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 2;
}

/** A command line the command cannot read: answered like `fail`, with the usage. */
class UsageError extends Error {}

/**
 * The command's options, read strictly: an unknown option, or one without its value, stops the
 * command with the problem and `usage` on stderr and exit code 2 (runCommand), as any other
 * mistake in how it was called does. `args` are the process's own unless given.
 */
export function commandOptions<Options extends NonNullable<ParseArgsConfig['options']>>(
  usage: string,
  options: Options,
  args?: string[],
) {
  try {
    return parseArgs({ args, options, strict: true }).values;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(`${(error as Error).message}\n${usage}`);
    throw error;
  }
}

/** Runs an operator command's main, reporting an unexpected failure with exit code 1. */
export function runCommand(name: string, main: () => Promise<void>): Promise<void> {
  return main().catch((error: unknown) => {
    if (error instanceof UsageError) return fail(error.message);
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
