import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const alphanumerics = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random token of URL-safe characters carrying `bytes` bytes of entropy. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** Printable alphanumerics only: integrators type POS keys into terminal configuration. */
export function randomAlphanumeric(length: number): string {
  return Array.from({ length }, () => alphanumerics[randomInt(alphanumerics.length)]).join('');
}

/**
 * API secrets are 32 random bytes, so a single SHA-256 is enough: there is nothing to
 * brute-force that a slow password hash would protect.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEquals(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}
