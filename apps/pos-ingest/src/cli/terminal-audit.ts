import 'reflect-metadata';

import { commandOptions, runCommand, withAppDatabase } from '@payments/platform-bootstrap';

import { Env } from '../config/env';
import { database } from '../database/data-source';
import { TerminalsRepository } from '../terminals/terminals.repository';

const commandLine = {
  script: 'terminal:audit',
  options: {
    business: { type: 'string', value: 'BUSINESS_ID' },
    json: { type: 'boolean' },
  },
} as const;

/**
 * Lists terminals registered to an outlet their business does not have, for one business or all.
 * Registration refuses such outlets now; terminals registered before it did may still point at a
 * mistyped outlet, and their money goes to the settlement wallet. Fix one by registering it again
 * with its real outlet.
 */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  await withAppDatabase(Env, database, async (dataSource) => {
    const terminals = await new TerminalsRepository(dataSource).withUnknownOutlets(values.business ?? null);
    if (values.json) return void process.stdout.write(`${JSON.stringify(terminals)}\n`);
    if (terminals.length === 0) return void process.stdout.write('No terminal is registered to an unknown outlet\n');
    for (const { serialNumber, businessId, outletId } of terminals) {
      process.stdout.write(`terminal ${serialNumber} of business ${businessId}: outlet ${outletId} is unknown\n`);
    }
  });
}

void runCommand('terminal:audit', main);
