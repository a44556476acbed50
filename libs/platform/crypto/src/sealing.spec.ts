import { randomBytes } from 'node:crypto';

import fc from 'fast-check';

import { Sealer } from './sealing';

const key = randomBytes(32).toString('base64');

describe('Sealer', () => {
  const sealer = new Sealer(key);

  it('opens what it sealed, for any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => sealer.open(sealer.seal(text)) === text));
  });

  it('never produces the same ciphertext twice for the same text', () => {
    expect(sealer.seal('5061460410120223210')).not.toEqual(sealer.seal('5061460410120223210'));
  });

  it('draws a fresh IV for every seal, across refills of its random pool', () => {
    const ivs = Array.from({ length: 2000 }, () =>
      Buffer.from(sealer.seal('x').slice(3), 'base64url').subarray(0, 12).toString('hex'),
    );
    expect(new Set(ivs).size).toBe(ivs.length);
  });

  it('refuses a value sealed under another key', () => {
    const other = new Sealer(randomBytes(32).toString('base64'));
    expect(() => sealer.open(other.seal('secret'))).toThrow();
  });

  it('refuses a tampered value', () => {
    const [prefix, body] = sealer.seal('secret').split('.');
    const bytes = Buffer.from(body, 'base64url');
    bytes[14] ^= 0x01;
    expect(() => sealer.open(`${prefix}.${bytes.toString('base64url')}`)).toThrow();
  });

  it('refuses a value bound to other associated data', () => {
    const sealed = sealer.seal('4111111111111111', 'charge-1');
    expect(sealer.open(sealed, 'charge-1')).toBe('4111111111111111');
    expect(() => sealer.open(sealed, 'charge-2')).toThrow();
  });

  it('rejects a key that is not 32 bytes', () => {
    expect(() => new Sealer(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });
});
