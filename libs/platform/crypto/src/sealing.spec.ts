import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

import fc from 'fast-check';

import { keyIdOf, KeyRing } from './key-ring';
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
      Buffer.from(sealer.seal('x').split('.')[2], 'base64url').subarray(0, 12).toString('hex'),
    );
    expect(new Set(ivs).size).toBe(ivs.length);
  });

  it('refuses a value sealed under another key', () => {
    const other = new Sealer(randomBytes(32).toString('base64'));
    expect(() => sealer.open(other.seal('secret'))).toThrow();
  });

  it('refuses a tampered value', () => {
    const [prefix, id, body] = sealer.seal('secret').split('.');
    const bytes = Buffer.from(body, 'base64url');
    bytes[14] ^= 0x01;
    expect(() => sealer.open(`${prefix}.${id}.${bytes.toString('base64url')}`)).toThrow();
  });

  it('opens JSON, and refuses a value that does not parse without quoting what it opened', () => {
    expect(sealer.openJson(sealer.seal(JSON.stringify({ pan: '5061460410120223210' }), 'c-1'), 'c-1')).toEqual({
      pan: '5061460410120223210',
    });
    const notJson = sealer.seal('5061460410120223210 is no JSON', 'c-1');
    expect(() => sealer.openJson(notJson, 'c-1')).toThrow('the sealed value is not JSON');
    try {
      sealer.openJson(notJson, 'c-1');
    } catch (error) {
      expect(String(error)).not.toContain('5061460410120223210');
    }
  });

  it('refuses a value bound to other associated data', () => {
    const sealed = sealer.seal('4111111111111111', 'charge-1');
    expect(sealer.open(sealed, 'charge-1')).toBe('4111111111111111');
    expect(() => sealer.open(sealed, 'charge-2')).toThrow();
  });

  it('rejects a key that is not 32 bytes', () => {
    expect(() => new Sealer(randomBytes(16).toString('base64'))).toThrow('32 bytes');
    expect(() => new Sealer(`${key},${randomBytes(31).toString('base64')}`)).toThrow('entry 2 must be 32 bytes');
  });
});

describe('Sealer under a key ring', () => {
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');
  const idOf = (base64: string) => keyIdOf(Buffer.from(base64, 'base64'));

  it('seals under the first key, naming it, and opens under any key the ring holds, through a rotation', () => {
    const before = new Sealer(oldKey);
    const adding = new Sealer(`${oldKey},${newKey}`);
    const rotated = new Sealer(`${newKey},${oldKey}`);
    const after = new Sealer(newKey);
    fc.assert(
      fc.property(fc.string(), fc.string(), (text, boundTo) => {
        const sealedBefore = before.seal(text, boundTo);
        const sealedAfter = rotated.seal(text, boundTo);
        return (
          sealedBefore.split('.')[1] === idOf(oldKey) &&
          adding.seal(text, boundTo).split('.')[1] === idOf(oldKey) &&
          sealedAfter.split('.')[1] === idOf(newKey) &&
          // Every step of the rotation opens what the step before and the step after seal.
          adding.open(sealedAfter, boundTo) === text &&
          rotated.open(sealedBefore, boundTo) === text &&
          after.open(sealedAfter, boundTo) === text
        );
      }),
    );
  });

  it("names the missing key's id, never the key, once a ring no longer holds it", () => {
    const sealed = new Sealer(oldKey).seal('secret');
    expect(() => new Sealer(newKey).open(sealed)).toThrow(
      `sealed under key ${idOf(oldKey)}, which this key ring does not hold`,
    );
  });

  it('opens a value sealed before rings (v1, naming no key) under whichever key of the ring sealed it', () => {
    // v1 was AES-256-GCM of iv | ciphertext | tag under the one key, with no key id.
    const v1 = (base64: string, text: string) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', Buffer.from(base64, 'base64'), iv);
      cipher.setAAD(Buffer.from('biz-1'));
      const body = Buffer.concat([cipher.update(text), cipher.final()]);
      return `v1.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
    };
    const ring = new Sealer(`${newKey},${oldKey}`);
    expect(ring.open(v1(oldKey, 'sk_live_1'), 'biz-1')).toBe('sk_live_1');
    expect(ring.isStale(v1(oldKey, 'sk_live_1'))).toBe(true);
    expect(() => ring.open(v1(randomBytes(32).toString('base64'), 'x'), 'biz-1')).toThrow('does not hold');
    expect(() => ring.open(v1(oldKey, 'x'), 'biz-2')).toThrow();
  });

  it('seals as releases before rings did while they may still run (format v1), which they and rings open', () => {
    // How a release before rings opened: v1 only, under its one key.
    const openedBeforeRings = (sealed: string, base64: string, boundTo: string) => {
      const [prefix, encoded, extra] = sealed.split('.');
      if (prefix !== 'v1' || extra !== undefined) throw new Error('not a sealed value');
      const raw = Buffer.from(encoded, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', Buffer.from(base64, 'base64'), raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString();
    };
    const compatible = new Sealer(`${oldKey},${newKey}`, { format: 'v1' });
    fc.assert(
      fc.property(fc.string(), fc.string(), (text, boundTo) => {
        const sealed = compatible.seal(text, boundTo);
        return (
          openedBeforeRings(sealed, oldKey, boundTo) === text &&
          new Sealer(`${newKey},${oldKey}`).open(sealed, boundTo) === text
        );
      }),
    );
    expect(() => openedBeforeRings(new Sealer(oldKey).seal('x', 'b'), oldKey, 'b')).toThrow('not a sealed value');
  });

  it('tells a value under an older key from one under the current key', () => {
    const ring = new Sealer(`${newKey},${oldKey}`);
    expect(ring.isStale(new Sealer(oldKey).seal('x'))).toBe(true);
    expect(ring.isStale(ring.seal('x'))).toBe(false);
    expect(ring.currentKeyId).toBe(idOf(newKey));
  });

  it('refuses a ring that lists a key twice, and ids that differ per key', () => {
    expect(() => KeyRing.parse(`${oldKey},${oldKey}`)).toThrow('the same key twice');
    expect(idOf(oldKey)).not.toBe(idOf(newKey));
    expect(idOf(oldKey)).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });
});
