import fc from 'fast-check';

import { decide } from './retry-policy';

const schedule = [60_000, 300_000, 1_800_000];

describe('retry policy', () => {
  it('treats any 2xx as delivered', () => {
    for (const statusCode of [200, 201, 202, 204, 299]) {
      expect(decide({ statusCode, retryAfterMs: null }, 1, schedule)).toEqual({ status: 'succeeded' });
    }
  });

  it('retries errors, timeouts and non-2xx answers on the schedule, within ±20%', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(null, 301, 400, 404, 500, 502),
        fc.integer({ min: 1, max: 3 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (statusCode, attempt, r) => {
          const decision = decide({ statusCode, retryAfterMs: null }, attempt, schedule, () => r);
          if (decision.status !== 'pending') return false;
          const base = schedule[attempt - 1];
          return decision.delayMs >= base * 0.8 && decision.delayMs <= base * 1.2;
        },
      ),
    );
  });

  it('gives up after the last scheduled attempt', () => {
    expect(decide({ statusCode: 500, retryAfterMs: null }, 4, schedule)).toEqual({ status: 'failed' });
  });

  it('stops retrying a URL that answered 410 Gone', () => {
    expect(decide({ statusCode: 410, retryAfterMs: null }, 1, schedule)).toEqual({ status: 'gone' });
  });

  it('honours Retry-After within bounds', () => {
    expect(decide({ statusCode: 429, retryAfterMs: 5000 }, 1, schedule)).toEqual({ status: 'pending', delayMs: 5000 });
    expect(decide({ statusCode: 503, retryAfterMs: 0 }, 1, schedule)).toEqual({ status: 'pending', delayMs: 1000 });
    expect(decide({ statusCode: 429, retryAfterMs: 10 * 86_400_000 }, 1, schedule)).toEqual({
      status: 'pending',
      delayMs: 1_800_000,
    });
  });
});
