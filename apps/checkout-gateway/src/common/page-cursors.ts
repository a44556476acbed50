import { createCipheriv, createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

import { Provider } from '@nestjs/common';
import { KeyRing } from '@payments/platform-crypto';
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
 * derived from PAGE_CURSOR_KEY, a key ring: cursors are issued under its first key and read
 * under any of them, so a rotation ends no cursor; one issued under a key the ring has dropped
 * answers 422, as one that was never given does.
 */
export class PageCursors {
  /** Each key of the ring, as the two keys derived from it; the first issues. */
  private readonly keys: CursorKeys[];

  constructor(pageCursorKeys: string) {
    this.keys = KeyRing.parse(pageCursorKeys, 'PAGE_CURSOR_KEY').keys.map(({ bytes }) => {
      const derive = (use: string) =>
        Buffer.from(hkdfSync('sha256', bytes, '', `checkout-gateway page cursor ${use}`, 32));
      return { mac: derive('mac'), encryption: derive('encryption') };
    });
  }

  /** The cursor that marks `position` in the business's `listing`. */
  issue(listing: CursorListing, businessId: string, position: string): string {
    const [keys] = this.keys;
    const iv = tagOf(keys, listing, businessId, position);
    const cipher = createCipheriv('aes-256-ctr', keys.encryption, iv);
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
    for (const keys of this.keys) {
      const decipher = createDecipheriv('aes-256-ctr', keys.encryption, iv);
      const position = Buffer.concat([decipher.update(bytes.subarray(tagLength)), decipher.final()]).toString('utf8');
      if (timingSafeEqual(iv, tagOf(keys, listing, businessId, position))) return position;
    }
    throw notIssued();
  }
}

interface CursorKeys {
  mac: Buffer;
  encryption: Buffer;
}

function tagOf(keys: CursorKeys, listing: CursorListing, businessId: string, position: string): Buffer {
  return createHmac('sha256', keys.mac)
    .update(JSON.stringify([listing, businessId, position]))
    .digest()
    .subarray(0, tagLength);
}

/** What a cursor this API did not issue (or issued for another listing or business) answers. */
export function notIssued(): ValidationFailedError {
  return new ValidationFailedError([{ field: 'cursor', messages: ['cursor must be a nextCursor this API returned'] }]);
}

/** PageCursors under the gateway's PAGE_CURSOR_KEY, for the modules whose listings page. */
export const pageCursorsProvider: Provider = {
  provide: PageCursors,
  inject: [Env],
  useFactory: (env: Env) => new PageCursors(env.PAGE_CURSOR_KEY),
};
