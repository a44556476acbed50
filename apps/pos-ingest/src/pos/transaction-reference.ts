import { createHmac, createSecretKey, KeyObject } from 'node:crypto';

import { PosPayload } from '@payments/contracts';

/** ULID's alphabet: references look like every other id the platform makes. */
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A POS transaction's reference, derived from the transaction itself with a keyed hash: the
 * business, a keyed fingerprint of the PAN, the sequence number, the amount, the expiry date and
 * the chip data (whose transaction counter and cryptogram differ on every use of the card). So
 * a resubmission, a replay of a captured request days later, or the same request sent under
 * another terminal of the business is the same transaction by construction, with no lookup;
 * a customer's second purchase is a new one. The serial number takes no part: it travels
 * outside the ciphertext, unauthenticated.
 */
export class TransactionReferences {
  private readonly key: KeyObject;

  constructor(base64Key: string) {
    this.key = createSecretKey(Buffer.from(base64Key, 'base64'));
  }

  of(
    businessId: string,
    payload: Pick<PosPayload, 'pan' | 'sequenceNumber' | 'amount' | 'cardExpiryDate' | 'iccData'>,
  ): string {
    const panFingerprint = createHmac('sha256', this.key)
      .update(JSON.stringify(['pan', payload.pan]))
      .digest('hex');
    // A JSON array keeps the fields apart: no text moved from one field to the next gives the same input.
    const fields = [
      'reference',
      businessId,
      panFingerprint,
      payload.sequenceNumber,
      payload.amount,
      payload.cardExpiryDate,
      payload.iccData,
    ];
    const digest = createHmac('sha256', this.key).update(JSON.stringify(fields)).digest();
    return base32(digest).slice(0, 26);
  }
}

function base32(bytes: Buffer): string {
  let text = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return text;
}
