import { randomBytes } from 'node:crypto';

import { ulid } from 'ulid';

const poolSize = 4096;
let pool = randomBytes(poolSize);
let offset = 0;

/**
 * ulid's default source asks the system for one random byte per character (16 calls per id);
 * this draws the same CSPRNG bytes from a pool refilled 4 KB at a time, as Node's own
 * randomUUID does. A byte / 256 picks one of 32 characters uniformly.
 */
function pooledRandom(): number {
  if (offset === poolSize) {
    pool = randomBytes(poolSize);
    offset = 0;
  }
  return pool[offset++] / 256;
}

/** A ULID: 48-bit millisecond time, then 80 random bits; sorts by creation time. */
export function newUlid(): string {
  return ulid(undefined, pooledRandom);
}
