import { randomInt } from 'node:crypto';

import { PosPayload } from '@payments/contracts';
import { commandOptions, fail, runCommand } from '@payments/platform-bootstrap';
import { encryptPosPayload } from '@payments/platform-crypto';

const usage =
  'usage: npm run pos:send -- --serial <sn> --key <posKey> --amount <kobo> [--card <number>] [--sequence <n>] [--url http://127.0.0.1:3002]';

/** Builds a POS payload, encrypts it exactly as the interface says, posts it and prints the answer. */
async function main(): Promise<void> {
  const values = commandOptions(usage, {
    serial: { type: 'string' },
    key: { type: 'string' },
    amount: { type: 'string' },
    card: { type: 'string', default: '5061460410120223210' },
    sequence: { type: 'string' },
    expiry: { type: 'string', default: '2812' },
    url: { type: 'string', default: 'http://127.0.0.1:3002' },
  });
  if (!values.serial || values.key === undefined || !values.amount) return fail(usage);
  const payload: PosPayload = {
    accountType: 'savings',
    amount: values.amount,
    cardExpiryDate: values.expiry,
    iccData: '9F2608C0FFEE00000000',
    pan: values.card,
    pinBlock: 'null',
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

runCommand('pos:send', main);
