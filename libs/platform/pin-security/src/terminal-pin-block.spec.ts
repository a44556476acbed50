import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { terminalPinBlock } from './terminal-pin-block';

const docs = resolve(__dirname, '../../../../docs');
const knownKey = '0123456789ABCDEFFEDCBA9876543210';

describe('a terminal’s PIN block', () => {
  it('refuses a PIN, a card number or a key it cannot use, without repeating them', () => {
    const key = randomBytes(16).toString('hex');
    expect(() => terminalPinBlock('123', '5060990000000000019', key)).toThrow('a PIN is 4 to 12 digits');
    expect(() => terminalPinBlock('1234567890123', '5060990000000000019', key)).toThrow('a PIN is 4 to 12 digits');
    expect(() => terminalPinBlock('1234', '50609900', key)).toThrow('a card number is 12 to 19 digits');
    expect(() => terminalPinBlock('1234', '5060990000000000019', key.slice(1))).toThrow(
      'a terminal PIN key is 32 hex characters',
    );
  });

  it('is what the POS guide’s Node snippet builds, which the guide shows as tested', () => {
    const snippet = resolve(docs, 'pos/pin-block.mjs');
    const run = (key: string, pin: string, pan: string) =>
      execFileSync(process.execPath, [snippet, key, pin, pan]).toString().trim();
    expect(run(knownKey, '1234', '43219876543210987')).toBe('C967C8198151A458');
    for (let i = 0; i < 10; i++) {
      const key = randomBytes(16).toString('hex');
      const pin = String(randomInt(0, 10 ** 8)).padStart(4 + (i % 5), '0');
      const pan = `506099${String(randomInt(0, 10 ** 9)).padStart(13, '0')}`.slice(0, 12 + (i % 8));
      expect([pin, pan, run(key, pin, pan)]).toEqual([pin, pan, terminalPinBlock(pin, pan, key)]);
    }
    expect(readFileSync(resolve(docs, 'pos.md'), 'utf8')).toContain(readFileSync(snippet, 'utf8').trim());
  });
});
