export interface AttemptOutcome {
  statusCode: number | null;
  retryAfterMs: number | null;
}

export type Decision =
  | { status: 'succeeded' }
  | { status: 'failed' }
  /** 410: the URL is gone for good; the business must set another one. */
  | { status: 'gone' }
  | { status: 'pending'; delayMs: number };

/** Retry-After is honoured, but never sooner than a second nor later than the longest scheduled wait. */
const minimumRetryAfterMs = 1000;

/**
 * What happens after attempt number `attempt` (1-based). The schedule lists the waits after
 * each failed attempt, so a delivery gets schedule.length + 1 attempts. Waits vary by ±20% so
 * that endpoints recovering from an outage are not hit by every retry at once.
 */
export function decide(
  outcome: AttemptOutcome,
  attempt: number,
  schedule: number[],
  random: () => number = Math.random,
): Decision {
  const code = outcome.statusCode;
  if (code !== null && code >= 200 && code < 300) return { status: 'succeeded' };
  if (code === 410) return { status: 'gone' };
  if (attempt > schedule.length) return { status: 'failed' };
  if (outcome.retryAfterMs !== null) {
    return {
      status: 'pending',
      delayMs: Math.min(Math.max(outcome.retryAfterMs, minimumRetryAfterMs), Math.max(...schedule)),
    };
  }
  const jitter = 0.8 + 0.4 * random();
  return { status: 'pending', delayMs: Math.round(schedule[attempt - 1] * jitter) };
}
