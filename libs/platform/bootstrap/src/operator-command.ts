import { parseArgs } from 'node:util';

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

/** A text option; `value` names what it takes in the usage line. A required one must not be blank. */
interface TextOption {
  type: 'string';
  value: string;
  default?: string;
  required?: boolean;
}

interface SwitchOption {
  type: 'boolean';
}

/**
 * An operator command's command line: the npm script that runs it and its options, from which
 * both the usage line and the reading of the options follow. `notes` go under the usage line.
 */
export interface CommandLine {
  script: string;
  options: Record<string, TextOption | SwitchOption>;
  notes?: string;
}

/** What a command line's options read as: a switch is a boolean, a required or defaulted text is a string. */
export type CommandValues<Options extends CommandLine['options']> = {
  [Name in keyof Options]: Options[Name] extends SwitchOption
    ? boolean
    : Options[Name] extends { required: true } | { default: string }
      ? string
      : string | undefined;
};

/** `usage: npm run <script> -- --name VALUE [--optional VALUE] [--switch]`, then the notes. */
export function usageOf(command: CommandLine): string {
  const shown = Object.entries(command.options).map(([name, option]) => {
    if (option.type === 'boolean') return `[--${name}]`;
    return option.required ? `--${name} ${option.value}` : `[--${name} ${option.value}]`;
  });
  return [`usage: npm run ${command.script} -- ${shown.join(' ')}`, command.notes].filter(Boolean).join('\n');
}

/**
 * The command's options, read strictly: an unknown option, one without its value, or a required
 * one left out or blank stops the command with the problem and the usage on stderr and exit
 * code 2 (runCommand), as any other mistake in how it was called does. `args` are the process's
 * own unless given.
 */
export function commandOptions<const Command extends CommandLine>(
  command: Command,
  args?: string[],
): CommandValues<Command['options']> {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([name, option]) => [
      name,
      option.type === 'boolean'
        ? { type: 'boolean' as const, default: false }
        : { type: 'string' as const, default: option.default },
    ]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args, options, strict: true }).values;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(`${(error as Error).message}\n${usageOf(command)}`);
    }
    throw error;
  }
  for (const [name, option] of Object.entries(command.options)) {
    if (option.type === 'string' && option.required && !(values[name] as string | undefined)?.trim()) {
      throw new UsageError(`--${name} is required\n${usageOf(command)}`);
    }
  }
  return values as CommandValues<Command['options']>;
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
 * An operator command's own small connection to its app's database, closed once `work` is done.
 * It migrates first when the app would (MIGRATE_ON_START: a command may run before the app ever
 * has); where migrations are a release's Job, the command runs as the app's own role, which may
 * not change the schema.
 */
export async function withAppDatabase<E extends PlatformEnv, T>(
  envClass: new () => E,
  database: AppDatabase,
  work: (dataSource: DataSource, env: E) => Promise<T>,
): Promise<T> {
  const env = loadEnvOrExit(envClass);
  const options = postgresOptions(env.DATABASE_URL, 2, database);
  if (env.MIGRATE_ON_START) await migrate(options, { appRole: env.DATABASE_APP_ROLE, grants: database.grants });
  const dataSource = await new DataSource(options).initialize();
  try {
    return await work(dataSource, env);
  } finally {
    await dataSource.destroy();
  }
}
