import { loadEnvOrExit } from '@payments/platform-bootstrap';
import { Sealer } from '@payments/platform-crypto';
import { migrate, postgresOptions } from '@payments/platform-database';
import { Outbox } from '@payments/platform-outbox';
import { DataSource } from 'typeorm';

import { BusinessKeysRepository } from '../businesses/business-keys.repository';
import { BusinessKeysService } from '../businesses/business-keys.service';
import { BusinessesRepository } from '../businesses/businesses.repository';
import { BusinessesService } from '../businesses/businesses.service';
import { Env } from '../config/env';
import { database } from '../database/data-source';

export interface GatewayServices {
  dataSource: DataSource;
  businesses: BusinessesService;
  keys: BusinessKeysService;
}

/**
 * The gateway's business services on their own database connection, for the operator commands.
 * Events they write go to the outbox, which a running gateway publishes.
 */
export async function withGatewayServices<T>(work: (services: GatewayServices) => Promise<T>): Promise<T> {
  const env = loadEnvOrExit(Env);
  const options = postgresOptions(env.DATABASE_URL, 2, database);
  await migrate(options);
  const dataSource = await new DataSource(options).initialize();
  try {
    const sealer = new Sealer(env.DATA_ENCRYPTION_KEY);
    const outbox = new Outbox();
    const keysRepository = new BusinessKeysRepository(dataSource);
    const businesses = new BusinessesService(
      dataSource,
      new BusinessesRepository(dataSource),
      keysRepository,
      outbox,
      sealer,
    );
    const keys = new BusinessKeysService(dataSource, keysRepository, businesses, outbox, sealer);
    return await work({ dataSource, businesses, keys });
  } finally {
    await dataSource.destroy();
  }
}

/** A usage error: the message on stderr, exit code 2. */
export function fail(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 2;
}

/** Runs a command's main, reporting an unexpected failure with exit code 1. */
export function runCommand(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
