import { createCipheriv, createDecipheriv, createSecretKey, KeyObject, randomFillSync } from 'node:crypto';

const algorithm = 'aes-256-gcm';
const ivLength = 12;
const tagLength = 16;
const version = 'v1';

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
 * Authenticated encryption for secrets at rest and card fields in transit on Kafka.
 * Output: `v1.<base64url(iv | ciphertext | tag)>`. The version prefix lets us rotate the
 * scheme without guessing what an old value is.
 */
export class Sealer {
  private readonly key: KeyObject;

  constructor(base64Key: string) {
    const key = Buffer.from(base64Key, 'base64');
    if (key.length !== 32) throw new Error('a sealing key must be 32 bytes, base64-encoded');
    this.key = createSecretKey(key);
  }

  seal(plaintext: string, associatedData = ''): string {
    const iv = ivs.next();
    const cipher = createCipheriv(algorithm, this.key, iv, { authTagLength: tagLength });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${version}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** Throws when the value was altered, sealed under another key, or bound to other data. */
  open(sealed: string, associatedData = ''): string {
    const [prefix, encoded] = sealed.split('.', 2);
    if (prefix !== version || !encoded) throw new Error('not a sealed value');
    const raw = Buffer.from(encoded, 'base64url');
    if (raw.length < ivLength + tagLength) throw new Error('not a sealed value');
    const decipher = createDecipheriv(algorithm, this.key, raw.subarray(0, ivLength), { authTagLength: tagLength });
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - tagLength));
    return Buffer.concat([decipher.update(raw.subarray(ivLength, raw.length - tagLength)), decipher.final()]).toString(
      'utf8',
    );
  }
}
