import { createCipheriv, createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

import { Provider } from '@nestjs/common';
import { ValidationFailedError } from '@payments/platform-envelope';

import { Env } from '../config/env';

/** The listings whose pages carry a cursor: a cursor of one is no cursor of another. */
export type CursorListing = 'transactions' | 'refunds';

/** Bytes of the synthetic IV, which is also the tag that proves the cursor was issued here. */
const tagLength = 16;

/**
 * Cursors of the partner API's listings. A listing says where its next page starts (its
 * position, as text only it reads); the cursor seals that position for one listing of one
 * business. Sealed deterministically (SIV: the IV is an HMAC-SHA256 of the listing, the business
 * and the position, and AES-256-CTR under that IV hides the position), so a cursor is opaque,
 * nothing but this gateway can make one, and no counter or nonce has to be kept. The keys are
 * derived from DATA_ENCRYPTION_KEY, for this use only: a new key makes every cursor given out
 * before answer 422, as one that was never given does.
 */
export class PageCursors {
  private readonly macKey: Buffer;
  private readonly encryptionKey: Buffer;

  constructor(dataEncryptionKey: string) {
    const key = Buffer.from(dataEncryptionKey, 'base64');
    if (key.length !== 32) throw new Error('page cursors need a 32-byte key, base64-encoded');
    const derive = (use: string) => Buffer.from(hkdfSync('sha256', key, '', `checkout-gateway page cursor ${use}`, 32));
    this.macKey = derive('mac');
    this.encryptionKey = derive('encryption');
  }

  /** The cursor that marks `position` in the business's `listing`. */
  issue(listing: CursorListing, businessId: string, position: string): string {
    const iv = this.tag(listing, businessId, position);
    const cipher = createCipheriv('aes-256-ctr', this.encryptionKey, iv);
    return Buffer.concat([iv, cipher.update(position, 'utf8'), cipher.final()]).toString('base64url');
  }

  /**
   * The position a cursor marks, when this gateway issued it for this listing of this business;
   * otherwise 422 VALIDATION_FAILED naming the `cursor` field.
   */
  read(listing: CursorListing, businessId: string, cursor: string): string {
    const bytes = Buffer.from(cursor, 'base64url');
    // Buffer skips what is not base64url: only a cursor that is exactly its bytes' text is read.
    if (bytes.length < tagLength || bytes.toString('base64url') !== cursor) throw notIssued();
    const iv = bytes.subarray(0, tagLength);
    const decipher = createDecipheriv('aes-256-ctr', this.encryptionKey, iv);
    const position = Buffer.concat([decipher.update(bytes.subarray(tagLength)), decipher.final()]).toString('utf8');
    if (!timingSafeEqual(iv, this.tag(listing, businessId, position))) throw notIssued();
    return position;
  }

  private tag(listing: CursorListing, businessId: string, position: string): Buffer {
    return createHmac('sha256', this.macKey)
      .update(JSON.stringify([listing, businessId, position]))
      .digest()
      .subarray(0, tagLength);
  }
}

/** What a cursor this API did not issue (or issued for another listing or business) answers. */
export function notIssued(): ValidationFailedError {
  return new ValidationFailedError([{ field: 'cursor', messages: ['cursor must be a nextCursor this API returned'] }]);
}

/** PageCursors under the gateway's DATA_ENCRYPTION_KEY, for the modules whose listings page. */
export const pageCursorsProvider: Provider = {
  provide: PageCursors,
  inject: [Env],
  useFactory: (env: Env) => new PageCursors(env.DATA_ENCRYPTION_KEY),
};
