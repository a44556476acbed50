import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A bearer token for a link, a session or a device: 256 random bits. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is kept of a token: its SHA-256, so a read of the table signs nobody in. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * The CSRF token of the forms shown with a cookie's token: derived from it, so nothing more is
 * kept, and only a page that could read the HttpOnly cookie (none) or was served with it has it.
 */
export function formToken(cookieToken: string): string {
  return createHmac('sha256', cookieToken).update('dashboard form').digest('base64url');
}

export function formTokenMatches(cookieToken: string | undefined, submitted: unknown): boolean {
  if (!cookieToken || typeof submitted !== 'string') return false;
  const expected = Buffer.from(formToken(cookieToken));
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
