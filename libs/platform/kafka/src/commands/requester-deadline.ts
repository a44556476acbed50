import { AsyncLocalStorage } from 'node:async_hooks';

import { apiError } from '@payments/platform-envelope';

/** When the requester of the command being handled stops waiting, in epoch milliseconds. */
const deadlines = new AsyncLocalStorage<number>();

/** Runs a request's handler with its requester's deadline in reach (none when the request named none). */
export function untilRequesterDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  return Number.isFinite(deadline) ? deadlines.run(deadline, work) : work();
}

/** The deadline of the request being handled, for a check made inside the database; null outside requests. */
export function requesterDeadline(): Date | null {
  const deadline = deadlines.getStore();
  return deadline === undefined ? null : new Date(deadline);
}

/**
 * Stops a command whose requester has stopped waiting. A money command calls it once it holds
 * its reference: the requester answered 503 at the deadline and the caller may have retried
 * since, and been refused (insufficient funds, say); booking now would contradict that answer.
 */
export function ensureRequesterWaiting(): void {
  const deadline = deadlines.getStore();
  if (deadline !== undefined && Date.now() >= deadline) {
    throw apiError('SERVICE_UNAVAILABLE', 'The request was not handled in time; retry it with the same reference');
  }
}
