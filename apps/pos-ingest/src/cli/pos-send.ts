import { randomInt } from 'node:crypto';

import { PosPayload } from '@payments/contracts';
import { commandOptions, fail, runCommand } from '@payments/platform-bootstrap';
import { encryptPosPayload } from '@payments/platform-crypto';
import { terminalPinBlock } from '@payments/platform-pin-security';

const commandLine = {
  script: 'pos:send',
  options: {
    serial: { type: 'string', value: 'SERIAL', required: true },
    key: { type: 'string', value: 'POS_KEY', required: true },
    amount: { type: 'string', value: 'KOBO', required: true },
    card: { type: 'string', value: 'NUMBER', default: '5061460410120223210' },
    sequence: { type: 'string', value: 'N' },
    expiry: { type: 'string', value: 'YYMM', default: '2812' },
    url: { type: 'string', value: 'URL', default: 'http://127.0.0.1:3002' },
    pin: { type: 'string', value: 'DIGITS' },
    'pin-key': { type: 'string', value: 'HEX' },
  },
  notes:
    'With --pin, the PIN goes as a terminal sends it: an ISO 9564 format 0 block under the terminal’s PIN key (--pin-key, as terminal:register printed it); without, pinBlock is null.',
} as const;

/** Builds a POS payload, encrypts it exactly as the interface says, posts it and prints the answer. */
async function main(): Promise<void> {
  const values = commandOptions(commandLine);
  if ((values.pin === undefined) !== (values['pin-key'] === undefined)) return fail('--pin and --pin-key go together');
  let pinBlock = 'null';
  if (values.pin !== undefined && values['pin-key'] !== undefined) {
    try {
      pinBlock = terminalPinBlock(values.pin, values.card, values['pin-key']);
    } catch (error) {
      return fail(`--pin, --pin-key or --card: ${(error as Error).message}`);
    }
  }
  const payload: PosPayload = {
    accountType: 'savings',
    amount: values.amount,
    cardExpiryDate: values.expiry,
    iccData: '9F2608C0FFEE00000000',
    pan: values.card,
    pinBlock,
    sequenceNumber: values.sequence ?? String(randomInt(1, 999_999)).padStart(6, '0'),
    cardHolderName: 'SANDBOX CARDHOLDER',
    aid: 'A0000003710001',
    track2Data: `${values.card}D${values.expiry}1010000000000000`,
    institutionCode: '627629',
  };
  const response = await fetch(new URL('/pos', values.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ serialNumber: values.serial, data: encryptPosPayload(payload, values.key) }),
  });
  process.stdout.write(`${await response.text()}\n`);
  if (!response.ok) process.exitCode = 1;
}

void runCommand('pos:send', main);
