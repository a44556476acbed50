import { createCipheriv, createDecipheriv } from 'node:crypto';

/**
 * Double-length TDES (K1K2, used as K1K2K1: `des-ede-ecb`) on single 8-byte blocks, as PIN
 * blocks and key check values need it. Every Buffer these return holds key or PIN material:
 * the caller zeroes it once used.
 */

export const keyBytes = 16;
export const blockBytes = 8;
const hexKey = /^[0-9A-Fa-f]{32}$/;

/** One block under `key`, in or out; no padding, no chaining. */
export function tdesBlock(direction: 'encrypt' | 'decrypt', key: Buffer, block: Buffer): Buffer {
  const cipher =
    direction === 'encrypt' ? createCipheriv('des-ede-ecb', key, null) : createDecipheriv('des-ede-ecb', key, null);
  cipher.setAutoPadding(false);
  const out = cipher.update(block);
  const rest = cipher.final();
  if (out.length !== blockBytes || rest.length !== 0) {
    out.fill(0);
    rest.fill(0);
    throw new Error('TDES takes and gives one 8-byte block');
  }
  return out;
}

/** Sets each byte's lowest bit so the byte has an odd number of ones (DES key parity), in place. */
export function setOddParity(key: Buffer): Buffer {
  for (let i = 0; i < key.length; i++) {
    const high = key[i] & 0xfe;
    key[i] = high | (ones(high) % 2 === 0 ? 1 : 0);
  }
  return key;
}

export function hasOddParity(key: Buffer): boolean {
  let odd = true;
  for (const byte of key) odd = odd && ones(byte) % 2 === 1;
  return odd;
}

/** The key check value: the first three bytes of eight zero bytes under the key, as 6 hex characters. */
export function checkValueOf(key: Buffer): string {
  const encrypted = tdesBlock('encrypt', key, Buffer.alloc(blockBytes));
  try {
    return encrypted.subarray(0, 3).toString('hex').toUpperCase();
  } finally {
    encrypted.fill(0);
  }
}

/** A double-length key from 32 hex characters, or null when it is not one. */
export function keyFromHex(text: string): Buffer | null {
  return hexKey.test(text) ? Buffer.from(text, 'hex') : null;
}

function ones(byte: number): number {
  let count = 0;
  for (let bits = byte; bits; bits >>= 1) count += bits & 1;
  return count;
}
