import 'reflect-metadata';

import { commandOptions, fail, runCommand, withAppDatabase } from '@payments/platform-bootstrap';

import { Env } from '../config/env';
import { database } from '../database/data-source';
import { TerminalsRepository } from '../terminals/terminals.repository';

const commandLine = {
  script: 'terminal:register',
  options: {
    business: { type: 'string', value: 'BUSINESS_ID', required: true },
    serial: { type: 'string', value: 'SERIAL', required: true },
    outlet: { type: 'string', value: 'OUTLET_ID' },
    json: { type: 'boolean' },
  },
} as const;

/**
 * Registers a terminal for a business, and optionally one of its outlets. A serial number belongs
 * to one business; an outlet must be one outlet-service opened for that business.
 */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  const { business: businessId, serial: serialNumber, outlet } = values;
  if (!/^[\w.-]{1,64}$/.test(serialNumber)) return fail('--serial must be 1 to 64 letters, digits, ".", "_" or "-"');
  const terminal = { serialNumber, businessId, outletId: outlet ?? null };
  await withAppDatabase(Env, database, async (dataSource) => {
    const terminals = new TerminalsRepository(dataSource);
    if (!(await terminals.businessKnown(businessId))) {
      return fail(
        `business ${businessId} is not known to pos-ingest yet: onboard it with partner:create and let pos-ingest receive it`,
      );
    }
    if (outlet && !(await terminals.outletKnown(businessId, outlet))) {
      return fail(
        `outlet ${outlet} is not an outlet of business ${businessId} known to pos-ingest: check its id (GET /outlets), or try again once pos-ingest has received it`,
      );
    }
    if (!(await terminals.register(businessId, serialNumber, terminal.outletId))) {
      return fail(`terminal ${serialNumber} belongs to another business`);
    }
    process.stdout.write(
      values.json
        ? `${JSON.stringify(terminal)}\n`
        : `Registered terminal ${serialNumber} for business ${businessId}${outlet ? `, outlet ${outlet}` : ''}\n`,
    );
  });
}

void runCommand('terminal:register', main);
