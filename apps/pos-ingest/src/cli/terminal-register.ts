import 'reflect-metadata';

import { parseArgs } from 'node:util';

import { loadEnvOrExit } from '@payments/platform-bootstrap';
import { migrate, postgresOptions } from '@payments/platform-database';
import { DataSource } from 'typeorm';

import { Env } from '../config/env';
import { database } from '../database/data-source';
import { TerminalsRepository } from '../terminals/terminals.repository';

const usage =
  'usage: npm run terminal:register -- --business <businessId> --serial <serialNumber> [--outlet <outletId>] [--json]';

/** Registers a terminal for a business (and optionally an outlet). A serial number belongs to one business. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      business: { type: 'string' },
      serial: { type: 'string' },
      outlet: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.business || !values.serial) return fail(usage);
  if (!/^[\w.-]{1,64}$/.test(values.serial)) return fail('--serial must be 1 to 64 letters, digits, ".", "_" or "-"');
  const env = loadEnvOrExit(Env);
  const options = postgresOptions(env.DATABASE_URL, 2, database);
  await migrate(options);
  const dataSource = await new DataSource(options).initialize();
  try {
    const terminals = new TerminalsRepository(dataSource);
    if (!(await terminals.businessKnown(values.business))) {
      return fail(
        `business ${values.business} is not known to pos-ingest yet: onboard it with partner:create and let pos-ingest receive it`,
      );
    }
    if (!(await terminals.register(values.business, values.serial, values.outlet ?? null)))
      return fail(`terminal ${values.serial} belongs to another business`);
    const terminal = { serialNumber: values.serial, businessId: values.business, outletId: values.outlet ?? null };
    process.stdout.write(
      values.json
        ? `${JSON.stringify(terminal)}\n`
        : `Registered terminal ${values.serial} for business ${values.business}${values.outlet ? `, outlet ${values.outlet}` : ''}\n`,
    );
  } finally {
    await dataSource.destroy();
  }
}

function fail(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 2;
}

main().catch((error: unknown) => {
  process.stderr.write(`terminal:register failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
