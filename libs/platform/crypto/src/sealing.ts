import { createCipheriv, createDecipheriv, createSecretKey, KeyObject, randomFillSync } from 'node:crypto';

import { KeyRing } from './key-ring';

const algorithm = 'aes-256-gcm';
const ivLength = 12;
const tagLength = 16;
/** `v2.<key id>.<body>`; `v1.<body>` names no key (sealed before rings), and is opened by trying each. */
const version = 'v2';
const unnamedVersion = 'v1';

/**
 * How seal() writes: `v2` names the key; `v1` as releases before key rings sealed, which they
 * can open, for as long as such a release may still run beside this one (an upgrade's rollout).
 */
export type SealedFormat = typeof version | typeof unnamedVersion;

export interface SealerOptions {
  format?: SealedFormat;
}

/**
 * Random IVs drawn from a buffer refilled from the CSPRNG every 4 KiB: one call into OpenSSL
 * per 341 seals instead of one each, which cost more than the encryption of a card record.
 * Safe because seal() uses its IV synchronously, before the pool can be refilled.
 */
class IvPool {
  private readonly pool = Buffer.alloc(ivLength * 341);
  private offset = this.pool.length;

  next(): Buffer {
    if (this.offset === this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    this.offset += ivLength;
    return this.pool.subarray(this.offset - ivLength, this.offset);
  }
}

const ivs = new IvPool();

/**
 * Authenticated encryption for secrets at rest and card fields in transit on Kafka, under a
 * KeyRing: sealed under the ring's current key, opened with whichever key the value names.
 * Output: `v2.<key id>.<base64url(iv | ciphertext | tag)>`. The version prefix lets us change
 * the scheme without guessing what an old value is; the key id lets a key rotate while values
 * sealed under the one before (a Kafka message in flight, a row not yet resealed) still open.
 */
export class Sealer {
  private readonly ring: KeyRing;
  private readonly keys = new Map<string, KeyObject>();
  readonly format: SealedFormat;

  /** `keys`: a ring, or a setting listing one (KeyRing.parse). */
  constructor(keys: KeyRing | string, { format = version }: SealerOptions = {}) {
    this.ring = typeof keys === 'string' ? KeyRing.parse(keys) : keys;
    this.format = format;
    for (const key of this.ring.keys) this.keys.set(key.id, createSecretKey(key.bytes));
  }

  /** The id of the key seal() uses. */
  get currentKeyId(): string {
    return this.ring.current.id;
  }

  seal(plaintext: string, associatedData = ''): string {
    const iv = ivs.next();
    const { id } = this.ring.current;
    const cipher = createCipheriv(algorithm, this.keys.get(id)!, iv, { authTagLength: tagLength });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const encoded = Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    return this.format === version ? `${version}.${id}.${encoded}` : `${unnamedVersion}.${encoded}`;
  }

  /**
   * Throws when the value was altered, sealed under a key the ring does not hold (the message
   * names the key's id, never the key), or bound to other data.
   */
  open(sealed: string, associatedData = ''): string {
    const parts = sealed.split('.');
    if (parts[0] === version && parts.length === 3) {
      const key = this.keys.get(parts[1]);
      if (!key) throw new Error(`sealed under key ${parts[1]}, which this key ring does not hold`);
      return openWith(key, decode(parts[2]), associatedData);
    }
    if (parts[0] === unnamedVersion && parts.length === 2) {
      const raw = decode(parts[1]);
      for (const key of this.keys.values()) {
        try {
          return openWith(key, raw, associatedData);
        } catch {
          // another key of the ring, or none
        }
      }
      throw new Error('sealed under a key this key ring does not hold, or altered');
    }
    throw new Error('not a sealed value');
  }

  /**
   * open(), parsed as JSON. A value that opens but does not parse throws without the parser's
   * message, which quotes what it read: card data or a secret, bound for a log or a parked
   * message's reason.
   */
  openJson<T>(sealed: string, associatedData = ''): T {
    const opened = this.open(sealed, associatedData);
    try {
      return JSON.parse(opened) as T;
    } catch {
      throw new Error('the sealed value is not JSON');
    }
  }

  /**
   * Whether `sealed` is under a key other than the current one: what a reseal rewrites. A `v1`
   * value names no key, so it always is (a reseal seals as `v2` only).
   */
  isStale(sealed: string): boolean {
    const [prefix, id] = sealed.split('.');
    return prefix !== version || id !== this.ring.current.id;
  }
}

function decode(encoded: string): Buffer {
  const raw = Buffer.from(encoded, 'base64url');
  if (raw.length < ivLength + tagLength) throw new Error('not a sealed value');
  return raw;
}

function openWith(key: KeyObject, raw: Buffer, associatedData: string): string {
  const decipher = createDecipheriv(algorithm, key, raw.subarray(0, ivLength), { authTagLength: tagLength });
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(raw.subarray(raw.length - tagLength));
  return Buffer.concat([decipher.update(raw.subarray(ivLength, raw.length - tagLength)), decipher.final()]).toString(
    'utf8',
  );
}
