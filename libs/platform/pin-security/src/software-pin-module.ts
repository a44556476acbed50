import { createCipheriv, createDecipheriv, createSecretKey, KeyObject, randomBytes } from 'node:crypto';

import { isFormat0For, isPan } from './format0';
import { PinBlockError, PinSecurityModule, PinTranslation, TerminalPinKey } from './pin-security-module';
import { blockBytes, checkValueOf, hasOddParity, keyBytes, keyFromHex, setOddParity, tdesBlock } from './tdes';

const wrapVersion = 'lmk1';
const ivBytes = 12;
const tagBytes = 16;
/** Binds a wrapped value to its use: nothing else sealed under the same master key opens as a PIN key. */
const wrapPurpose = Buffer.from('terminal-pin-key', 'utf8');
const hexBlock = /^[0-9A-Fa-f]{16}$/;

/**
 * The PIN security module in software, for development, tests and deployments without an HSM.
 * Its local master key (PIN_MASTER_KEY, 32 bytes) wraps terminal keys with AES-256-GCM; "under
 * LMK" means that wrapping, which only this module opens. Clear keys and blocks are held in
 * Buffers zeroed as soon as they are used; no clear PIN is ever assembled, let alone returned.
 */
export class SoftwarePinModule implements PinSecurityModule {
  private readonly masterKey: KeyObject;

  constructor(base64MasterKey: string) {
    const key = Buffer.from(base64MasterKey, 'base64');
    try {
      if (key.length !== 32) throw new Error('PIN_MASTER_KEY must be 32 bytes, base64-encoded');
      this.masterKey = createSecretKey(key);
    } finally {
      key.fill(0);
    }
  }

  async generateTerminalKey(): Promise<TerminalPinKey> {
    const key = newDoubleLengthKey();
    try {
      return {
        keyUnderLmk: this.wrap(key),
        keyForTerminal: key.toString('hex').toUpperCase(),
        checkValue: checkValueOf(key),
      };
    } finally {
      key.fill(0);
    }
  }

  async translatePinBlock({ pinBlock, pan, sourceKeyUnderLmk, destinationZoneKey }: PinTranslation): Promise<string> {
    if (!hexBlock.test(pinBlock) || !isPan(pan)) throw new PinBlockError('pin-block');
    const zoneKey = keyFromHex(destinationZoneKey);
    if (!zoneKey) throw new PinBlockError('zone-key');
    const held: Buffer[] = [zoneKey];
    try {
      const terminalKey = this.unwrap(sourceKeyUnderLmk);
      held.push(terminalKey);
      const block = Buffer.from(pinBlock, 'hex');
      held.push(block);
      const clear = tdesBlock('decrypt', terminalKey, block);
      held.push(clear);
      if (!isFormat0For(clear, pan)) throw new PinBlockError('pin-block');
      const translated = tdesBlock('encrypt', zoneKey, clear);
      held.push(translated);
      return translated.toString('hex').toUpperCase();
    } finally {
      for (const buffer of held) buffer.fill(0);
    }
  }

  private wrap(key: Buffer): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, iv, { authTagLength: tagBytes });
    cipher.setAAD(wrapPurpose);
    const sealed = Buffer.concat([iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]);
    return `${wrapVersion}.${sealed.toString('base64url')}`;
  }

  /** The clear terminal key; a PinBlockError when it was not wrapped by this master key, or is not a TDES key. */
  private unwrap(keyUnderLmk: string): Buffer {
    const [version, encoded, extra] = keyUnderLmk.split('.');
    const raw = version === wrapVersion && encoded && extra === undefined ? Buffer.from(encoded, 'base64url') : null;
    if (raw?.length !== ivBytes + keyBytes + tagBytes) throw new PinBlockError('terminal-key');
    let key: Buffer | undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.masterKey, raw.subarray(0, ivBytes), {
        authTagLength: tagBytes,
      });
      decipher.setAAD(wrapPurpose);
      decipher.setAuthTag(raw.subarray(ivBytes + keyBytes));
      key = decipher.update(raw.subarray(ivBytes, ivBytes + keyBytes));
      decipher.final(); // throws when the tag does not match: another master key, or altered
    } catch {
      key?.fill(0);
      throw new PinBlockError('terminal-key');
    }
    if (!hasOddParity(key)) {
      key.fill(0);
      throw new PinBlockError('terminal-key');
    }
    return key;
  }
}

/**
 * A random double-length key with odd parity whose halves differ: K1 = K2 would be single DES.
 */
function newDoubleLengthKey(): Buffer {
  for (;;) {
    const key = setOddParity(randomBytes(keyBytes));
    if (!key.subarray(0, blockBytes).equals(key.subarray(blockBytes))) return key;
    key.fill(0);
  }
}
