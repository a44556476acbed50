import 'reflect-metadata';

import { commandOptions, fail, runCommand, withAppDatabase } from '@payments/platform-bootstrap';
import { pinSecurityModuleOf } from '@payments/platform-pin-security';

import { Env } from '../config/env';
import { database } from '../database/data-source';
import { registerTerminal } from '../terminals/terminal-registration';
import { TerminalsRepository } from '../terminals/terminals.repository';

const commandLine = {
  script: 'terminal:register',
  options: {
    business: { type: 'string', value: 'BUSINESS_ID', required: true },
    serial: { type: 'string', value: 'SERIAL', required: true },
    outlet: { type: 'string', value: 'OUTLET_ID' },
    'new-pin-key': { type: 'boolean' },
    json: { type: 'boolean' },
  },
} as const;

/**
 * Registers a terminal for a business, and optionally one of its outlets. A serial number belongs
 * to one business; an outlet must be one outlet-service opened for that business. A terminal
 * without a PIN key is given one (with PIN_MASTER_KEY set), printed here once and never again;
 * `--new-pin-key` replaces the key a terminal has.
 */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  const { business: businessId, serial: serialNumber, outlet } = values;
  if (!/^[\w.-]{1,64}$/.test(serialNumber)) return fail('--serial must be 1 to 64 letters, digits, ".", "_" or "-"');
  await withAppDatabase(Env, database, async (dataSource, env) => {
    const outcome = await registerTerminal(new TerminalsRepository(dataSource), pinSecurityModuleOf(env), {
      businessId,
      serialNumber,
      outletId: outlet ?? null,
      newPinKey: values['new-pin-key'],
    });
    if (!outcome.registered) return fail(outcome.problem);
    const { pinKey, hasPinKey } = outcome;
    if (values.json) {
      const terminal = { serialNumber, businessId, outletId: outlet ?? null, pinKey, hasPinKey };
      return void process.stdout.write(`${JSON.stringify(terminal)}\n`);
    }
    const lines = [
      `Registered terminal ${serialNumber} for business ${businessId}${outlet ? `, outlet ${outlet}` : ''}`,
    ];
    if (pinKey) {
      lines.push(
        `PIN key: ${pinKey.key} (check value ${pinKey.checkValue})`,
        'Load it into the terminal now (docs/pos.md): it is not shown again.',
      );
    } else {
      lines.push(
        hasPinKey
          ? 'The terminal keeps its PIN key (--new-pin-key issues another).'
          : 'No PIN key: PIN_MASTER_KEY is not set, so this terminal’s PIN blocks cannot be verified.',
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  });
}

void runCommand('terminal:register', main);
