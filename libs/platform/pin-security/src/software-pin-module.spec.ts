import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

import fc from 'fast-check';

import { PinBlockError } from './pin-security-module';
import { SoftwarePinModule } from './software-pin-module';
import { terminalPinBlock } from './terminal-pin-block';

const masterKey = randomBytes(32).toString('base64');
/** The textbook double-length key, whose check value is 08D7B4. */
const knownKey = '0123456789ABCDEFFEDCBA9876543210';
const testCard = '5060990000000000019'; // docs/test-cards.json

/** Independently of the module: the PIN a format 0 block under `zoneKey` holds for `pan`. */
function pinUnder(zoneKey: string, block: string, pan: string): string {
  const decipher = createDecipheriv('des-ede-ecb', Buffer.from(zoneKey, 'hex'), null).setAutoPadding(false);
  const clear = Buffer.concat([decipher.update(Buffer.from(block, 'hex')), decipher.final()]);
  const panPart = Buffer.from(`0000${`000000000000${pan.slice(0, -1)}`.slice(-12)}`, 'hex');
  const field = Buffer.from(clear.map((byte, i) => byte ^ panPart[i])).toString('hex');
  return field.slice(2, 2 + parseInt(field[1], 16));
}

function checkValue(hexKey: string): string {
  const cipher = createCipheriv('des-ede-ecb', Buffer.from(hexKey, 'hex'), null).setAutoPadding(false);
  return cipher.update(Buffer.alloc(8)).toString('hex').slice(0, 6).toUpperCase();
}

const oddParity = (hexKey: string) =>
  [...Buffer.from(hexKey, 'hex')].every((byte) => byte.toString(2).replace(/0/g, '').length % 2 === 1);

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((chars) => chars.join(''));
const hexKey = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString('hex'));

describe('the software PIN security module', () => {
  const hsm = new SoftwarePinModule(masterKey);

  it('builds the ISO 9564 format 0 blocks of the textbook examples under a known key', () => {
    // PIN 1234, PAN 43219876543210987: clear block 0412AC89ABCDEF67 (ISO 9564-1's worked example).
    expect(terminalPinBlock('1234', '43219876543210987', knownKey)).toBe('C967C8198151A458');
    // PIN 1234 on the sandbox card: clear block 041234FFFFFFFFFE.
    expect(terminalPinBlock('1234', testCard, knownKey)).toBe('CE799ACFDF85C560');
    expect(checkValue(knownKey)).toBe('08D7B4');
  });

  it('translates a block to the zone key exactly: the known block under the known zone key', async () => {
    const terminalKey = await hsm.generateTerminalKey();
    const block = terminalPinBlock('1234', testCard, terminalKey.keyForTerminal);
    await expect(
      hsm.translatePinBlock({
        pinBlock: block.toLowerCase(),
        pan: testCard,
        sourceKeyUnderLmk: terminalKey.keyUnderLmk,
        destinationZoneKey: knownKey,
      }),
    ).resolves.toBe('CE799ACFDF85C560');
  });

  it('issues double-length keys with odd parity, distinct halves, their check value, and wrapped', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => hsm.generateTerminalKey()));
    for (const { keyForTerminal, keyUnderLmk, checkValue: kcv } of keys) {
      expect(keyForTerminal).toMatch(/^[0-9A-F]{32}$/);
      expect(oddParity(keyForTerminal)).toBe(true);
      expect(keyForTerminal.slice(0, 16)).not.toBe(keyForTerminal.slice(16));
      expect(kcv).toBe(checkValue(keyForTerminal));
      expect(keyUnderLmk).toMatch(/^lmk1\.[\w-]+$/);
      expect(Buffer.from(keyUnderLmk.slice(5), 'base64url').toString('hex')).not.toContain(
        keyForTerminal.toLowerCase(),
      );
    }
    expect(new Set(keys.map((key) => key.keyForTerminal)).size).toBe(keys.length);
  });

  it('keeps any PIN of 4 to 12 digits through a translation from any terminal key to any zone key', async () => {
    await fc.assert(
      fc.asyncProperty(digits(4, 12), digits(12, 19), hexKey, async (pin, pan, zoneKey) => {
        const terminalKey = await hsm.generateTerminalKey();
        const translated = await hsm.translatePinBlock({
          pinBlock: terminalPinBlock(pin, pan, terminalKey.keyForTerminal),
          pan,
          sourceKeyUnderLmk: terminalKey.keyUnderLmk,
          destinationZoneKey: zoneKey,
        });
        expect(translated).toMatch(/^[0-9A-F]{16}$/);
        expect(pinUnder(zoneKey, translated, pan)).toBe(pin);
      }),
    );
  });

  it('refuses a block of random bytes under the terminal key', async () => {
    const terminalKey = await hsm.generateTerminalKey();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 8, maxLength: 8 }), async (bytes) => {
        const attempt = hsm.translatePinBlock({
          pinBlock: Buffer.from(bytes).toString('hex'),
          pan: testCard,
          sourceKeyUnderLmk: terminalKey.keyUnderLmk,
          destinationZoneKey: knownKey,
        });
        await expect(attempt).rejects.toEqual(new PinBlockError('pin-block'));
      }),
    );
  });
});

describe('what the software PIN security module refuses, and what its errors never say', () => {
  const hsm = new SoftwarePinModule(masterKey);
  const pin = '80417263';
  const zoneKey = randomBytes(16).toString('hex').toUpperCase();

  const cases = async () => {
    const terminal = await hsm.generateTerminalKey();
    const other = await hsm.generateTerminalKey();
    const elsewhere = await new SoftwarePinModule(randomBytes(32).toString('base64')).generateTerminalKey();
    const block = terminalPinBlock(pin, testCard, terminal.keyForTerminal);
    const request = {
      pinBlock: block,
      pan: testCard,
      sourceKeyUnderLmk: terminal.keyUnderLmk,
      destinationZoneKey: zoneKey,
    };
    const [version, body] = terminal.keyUnderLmk.split('.');
    const tampered = Buffer.from(body, 'base64url');
    tampered[20] ^= 0x01;
    return {
      secrets: [pin, block, terminal.keyForTerminal, terminal.keyUnderLmk, other.keyForTerminal, zoneKey],
      refused: [
        [
          'a block under another terminal’s key',
          { ...request, pinBlock: terminalPinBlock(pin, testCard, other.keyForTerminal) },
          'pin-block',
        ],
        ['a block built for another card', { ...request, pan: '5061460410120223210' }, 'pin-block'],
        ['a block that is not 16 hex characters', { ...request, pinBlock: `${block}00` }, 'pin-block'],
        ['a card number that is not one', { ...request, pan: `${testCard}X` }, 'pin-block'],
        [
          'a terminal key wrapped under another master key',
          { ...request, sourceKeyUnderLmk: elsewhere.keyUnderLmk },
          'terminal-key',
        ],
        [
          'a wrapped terminal key altered',
          { ...request, sourceKeyUnderLmk: `${version}.${tampered.toString('base64url')}` },
          'terminal-key',
        ],
        [
          'a terminal key that is not wrapped',
          { ...request, sourceKeyUnderLmk: terminal.keyForTerminal },
          'terminal-key',
        ],
        ['a zone key that is not 32 hex characters', { ...request, destinationZoneKey: zoneKey.slice(2) }, 'zone-key'],
      ] as const,
    };
  };

  it('refuses each with a PinBlockError naming what could not be used, and nothing of the PIN, the block or a key', async () => {
    const { secrets, refused } = await cases();
    for (const [, request, problem] of refused) {
      const error = (await hsm.translatePinBlock(request).catch((thrown: unknown) => thrown)) as PinBlockError;
      expect(error).toBeInstanceOf(PinBlockError);
      expect(error.problem).toBe(problem);
      expect(error.cause).toBeUndefined();
      const told = [error.message, String(error), error.stack, JSON.stringify(error)].join('\n').toUpperCase();
      for (const secret of [...secrets, request.pinBlock, request.sourceKeyUnderLmk]) {
        expect(told).not.toContain(secret.toUpperCase());
      }
    }
  });

  it('refuses a master key that is not 32 bytes, without repeating it', () => {
    const short = randomBytes(16).toString('base64');
    expect(() => new SoftwarePinModule(short)).toThrow('PIN_MASTER_KEY must be 32 bytes, base64-encoded');
    expect(() => new SoftwarePinModule(short)).not.toThrow(short);
  });
});
