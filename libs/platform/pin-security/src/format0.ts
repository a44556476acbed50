import { blockBytes } from './tdes';

/**
 * ISO 9564-1 format 0: the PIN field (`0`, the PIN's length, its digits, `F` fill) XOR the PAN
 * field (`0000` and the 12 rightmost digits of the PAN before its check digit).
 */

const panPattern = /^\d{12,19}$/;

export function isPan(pan: string): boolean {
  return panPattern.test(pan);
}

/** The PAN field of a format 0 block. */
export function panField(pan: string): Buffer {
  return Buffer.from(`0000${pan.slice(0, -1).padStart(12, '0').slice(-12)}`, 'hex');
}

/**
 * Whether a clear block is a format 0 block for this PAN: control `0`, a length of 4 to 12,
 * that many decimal digits, then `F` fill. Every nibble is looked at whatever an earlier one
 * was, so the time taken says nothing about where the digits end.
 */
export function isFormat0For(clear: Buffer, pan: string): boolean {
  const field = panField(pan);
  const pinField = Buffer.alloc(blockBytes);
  try {
    for (let i = 0; i < blockBytes; i++) pinField[i] = clear[i] ^ field[i];
    const length = pinField[0] & 0x0f;
    let valid = pinField[0] >> 4 === 0 && length >= 4 && length <= 12;
    for (let position = 0; position < 14; position++) {
      const byte = pinField[1 + (position >> 1)];
      const nibble = position % 2 === 0 ? byte >> 4 : byte & 0x0f;
      valid = (position < length ? nibble <= 9 : nibble === 0x0f) && valid;
    }
    return valid;
  } finally {
    pinField.fill(0);
  }
}

/**
 * The clear format 0 block of `pin` for `pan`: what a terminal builds before it encrypts. The
 * caller zeroes it.
 */
export function format0Block(pin: string, pan: string): Buffer {
  const pinField = Buffer.from(`0${pin.length.toString(16)}${pin}`.padEnd(16, 'F'), 'hex');
  const field = panField(pan);
  for (let i = 0; i < blockBytes; i++) pinField[i] ^= field[i];
  return pinField;
}
