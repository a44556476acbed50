// Builds a terminal's PIN block for the payload's pinBlock (Node.js, no dependencies): ISO 9564
// format 0, encrypted with double-length TDES under the terminal's PIN key.
//   node pin-block.mjs <pin-key> <pin> <pan>
import { createCipheriv } from 'node:crypto';

export function pinBlock(pinKeyHex, pin, pan) {
  const pinField = Buffer.from(`0${pin.length.toString(16)}${pin}`.padEnd(16, 'F'), 'hex'); // 0, length, PIN, F fill
  const panField = Buffer.from(`0000${pan.slice(0, -1).padStart(12, '0').slice(-12)}`, 'hex'); // 12 digits before the check digit
  const clear = pinField.map((byte, i) => byte ^ panField[i]);
  const cipher = createCipheriv('des-ede-ecb', Buffer.from(pinKeyHex, 'hex'), null).setAutoPadding(false);
  return Buffer.concat([cipher.update(clear), cipher.final()])
    .toString('hex')
    .toUpperCase();
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  console.log(pinBlock(process.argv[2], process.argv[3], process.argv[4]));
}
