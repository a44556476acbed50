import { format0Block, isPan } from './format0';
import { keyFromHex, tdesBlock } from './tdes';

/**
 * What a terminal does with the PIN its keypad read: an ISO 9564 format 0 block for the card,
 * encrypted under the terminal's own PIN key (docs/pos.md). For tools that stand in for a
 * terminal (`npm run pos:send`) and for tests: the platform itself never holds a clear PIN.
 */
export function terminalPinBlock(pin: string, pan: string, terminalKey: string): string {
  if (!/^\d{4,12}$/.test(pin)) throw new Error('a PIN is 4 to 12 digits');
  if (!isPan(pan)) throw new Error('a card number is 12 to 19 digits');
  const key = keyFromHex(terminalKey);
  if (!key) throw new Error('a terminal PIN key is 32 hex characters');
  const clear = format0Block(pin, pan);
  try {
    const block = tdesBlock('encrypt', key, clear);
    const hex = block.toString('hex').toUpperCase();
    block.fill(0);
    return hex;
  } finally {
    clear.fill(0);
    key.fill(0);
  }
}
