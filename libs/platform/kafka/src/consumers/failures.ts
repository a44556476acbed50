/** A message that can never be processed (unreadable, sealed under another key, breaking its contract): parked at once. */
export class PoisonMessageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoisonMessageError';
  }
}

// A message that cannot be applied yet, and the failures a retry can fix: shared with the
// request/reply path, which answers them as 503s.
export { isTransient, RetryLaterError } from '@payments/platform-envelope';
