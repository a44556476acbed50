import { createHmac } from 'node:crypto';

/**
 * A card number as it may be kept and compared: HMAC-SHA256 under CARD_FINGERPRINT_KEY (base64), hex.
 * The same card gives the same fingerprint in every app that holds the key (card-processor's
 * charges, the gateway's card-testing counts), and the number cannot be recovered from it.
 */
export class CardFingerprints {
  private readonly key: Buffer;

  constructor(fingerprintKey: string) {
    this.key = Buffer.from(fingerprintKey, 'base64');
    if (this.key.length !== 32) throw new Error('a card fingerprint key must be 32 bytes, base64-encoded');
  }

  of(cardNumber: string): string {
    return createHmac('sha256', this.key).update(cardNumber).digest('hex');
  }
}
