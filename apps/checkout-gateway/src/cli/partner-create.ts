import 'reflect-metadata';

import { parseArgs } from 'node:util';

import { PartnerCredentials } from '@payments/contracts';
import { loadEnvOrExit } from '@payments/platform-bootstrap';
import { Sealer } from '@payments/platform-crypto';
import { migrate, postgresOptions } from '@payments/platform-database';
import { Outbox } from '@payments/platform-outbox';
import { DataSource } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { BusinessesService } from '../businesses/businesses.service';
import { Env } from '../config/env';
import { database } from '../database/data-source';

const usage = 'usage: npm run partner:create -- --name "Acme Ltd" [--webhook-url URL] [--live] [--json]';

/**
 * Onboards a partner and prints its credentials once. With --json, stdout carries exactly one
 * JSON object and nothing else, so scripts can parse it; everything else goes to stderr.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      'webhook-url': { type: 'string' },
      live: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const name = values.name?.trim();
  if (!name) return fail(`--name is required\n${usage}`);
  if (name.length > 200) return fail('--name cannot exceed 200 characters');
  const webhookUrl = values['webhook-url'] ?? null;
  if (webhookUrl !== null && !isHttpUrl(webhookUrl)) return fail('--webhook-url must be an http(s) URL');

  const env = loadEnvOrExit(Env);
  const options = postgresOptions(env.DATABASE_URL, 2, database);
  await migrate(options);
  const dataSource = await new DataSource(options).initialize();
  try {
    const service = new BusinessesService(
      dataSource,
      new BusinessesRepository(dataSource),
      new Outbox(),
      new Sealer(env.DATA_ENCRYPTION_KEY),
    );
    const credentials = await service.provision({ name, mode: values.live ? 'live' : 'test', webhookUrl });
    process.stdout.write(values.json ? `${JSON.stringify(credentials)}\n` : describe(name, credentials));
  } finally {
    await dataSource.destroy();
  }
}

function describe(name: string, credentials: PartnerCredentials): string {
  return [
    `Created business "${name}" (${credentials.businessId})`,
    `  x-api-key:          ${credentials.apiKey}`,
    `  x-api-secret:       ${credentials.apiSecret}`,
    `  POS encryption key: ${credentials.posEncryptionKey}`,
    `  webhook URL:        ${credentials.webhookUrl ?? '(none)'}`,
    'The secret and the POS key are shown only now: store them safely.',
    '',
  ].join('\n');
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function fail(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 2;
}

main().catch((error: unknown) => {
  process.stderr.write(`partner:create failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
