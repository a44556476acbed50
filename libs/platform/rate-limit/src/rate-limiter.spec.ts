import fc from 'fast-check';

import { RateLimitPolicy } from './rate-limit-policy';
import { RateLimiter, RateLimitSignals, TokenGrant, TokenRequest, TokenStore } from './rate-limiter';

/** The SQL store's rule in memory: a grant is at most `want` and a quarter of what is left. */
class MemoryStore implements TokenStore {
  readonly used = new Map<string, number>();
  calls = 0;

  async take({ key, windowStart, quota, want }: TokenRequest): Promise<TokenGrant> {
    this.calls += 1;
    await Promise.resolve();
    const id = `${key}@${windowStart.toISOString()}`;
    const used = this.used.get(id) ?? 0;
    const granted = Math.min(want, Math.ceil(Math.max(quota - used, 0) / 4));
    this.used.set(id, used + granted);
    return { granted, used: used + granted };
  }
}

function recordingSignals() {
  const outcomes: string[] = [];
  let storeFailures = 0;
  const signals: RateLimitSignals = {
    decided: (_policy, outcome) => outcomes.push(outcome),
    storeFailed: () => (storeFailures += 1),
  };
  return { signals, outcomes, storeFailures: () => storeFailures };
}

const minute = (quota: number): RateLimitPolicy => ({ name: 'partner-api', quota, windowSeconds: 60 });
const start = Date.UTC(2026, 10, 28, 10, 0, 0);

describe('RateLimiter', () => {
  it('admits the quota and refuses the rest of the window', async () => {
    const limiter = new RateLimiter(new MemoryStore(), recordingSignals().signals);
    const decisions = [];
    for (let i = 0; i < 12; i += 1) decisions.push(await limiter.check(minute(10), 'key-1', start + i));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    expect(decisions.slice(10).every((decision) => !decision.allowed && decision.remaining === 0)).toBe(true);
    expect(decisions[0]).toMatchObject({ allowed: true, remaining: 9, resetSeconds: 60 });
  });

  it('starts again with the next window', async () => {
    const limiter = new RateLimiter(new MemoryStore(), recordingSignals().signals);
    for (let i = 0; i < 3; i += 1) await limiter.check(minute(3), 'key-1', start);
    expect((await limiter.check(minute(3), 'key-1', start + 59_000)).allowed).toBe(false);
    expect(await limiter.check(minute(3), 'key-1', start + 60_000)).toMatchObject({ allowed: true, resetSeconds: 60 });
  });

  it('counts each key on its own', async () => {
    const limiter = new RateLimiter(new MemoryStore(), recordingSignals().signals);
    await limiter.check(minute(1), 'key-1', start);
    expect((await limiter.check(minute(1), 'key-1', start)).allowed).toBe(false);
    expect((await limiter.check(minute(1), 'key-2', start)).allowed).toBe(true);
  });

  it('asks the store once per grant, not once per request', async () => {
    const store = new MemoryStore();
    const limiter = new RateLimiter(store, recordingSignals().signals, { leaseShare: 0.02, maxLease: 100 });
    for (let i = 0; i < 1000; i += 1) await limiter.check(minute(6000), 'key-1', start);
    expect(store.calls).toBe(10);
  });

  it('lets concurrent requests of one key share a grant', async () => {
    const store = new MemoryStore();
    const limiter = new RateLimiter(store, recordingSignals().signals, { maxLease: 50 });
    const decisions = await Promise.all(
      Array.from({ length: 50 }, () => limiter.check(minute(10_000), 'key-1', start)),
    );
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(store.calls).toBe(1);
  });

  it('never admits more than the quota across instances, and leaves little of it unused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 1500 }),
        async (quota, instanceOfRequest) => {
          const store = new MemoryStore();
          const instances = [0, 1, 2].map(() => new RateLimiter(store, recordingSignals().signals));
          let admitted = 0;
          for (const instance of instanceOfRequest) {
            if ((await instances[instance].check(minute(quota), 'key-1', start)).allowed) admitted += 1;
          }
          expect(admitted).toBeLessThanOrEqual(quota);
          // Requests enough to spend the quota on every instance spend all but the grants left idle.
          if (instanceOfRequest.length >= 3 * quota) {
            expect(admitted).toBeGreaterThanOrEqual(quota - 3 * Math.ceil(quota * 0.02));
          }
        },
      ),
    );
  });

  it('lets requests through unchecked while the store fails, and says so', async () => {
    const failing: TokenStore = { take: () => Promise.reject(new Error('connection refused')) };
    const recorded = recordingSignals();
    const limiter = new RateLimiter(failing, recorded.signals, { storeRetryMs: 60_000 });
    const decisions = [];
    for (let i = 0; i < 5; i += 1) decisions.push(await limiter.check(minute(1), 'key-1', start));
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(recorded.outcomes).toEqual(['unchecked', 'unchecked', 'unchecked', 'unchecked', 'unchecked']);
    // Asked once, then left alone until the retry time.
    expect(recorded.storeFailures()).toBe(1);
  });

  it('does not wait on a store slower than its timeout', async () => {
    const hanging: TokenStore = { take: () => new Promise<TokenGrant>(() => undefined) };
    const recorded = recordingSignals();
    const limiter = new RateLimiter(hanging, recorded.signals, { storeTimeoutMs: 20 });
    await expect(limiter.check(minute(1), 'key-1', start)).resolves.toMatchObject({ allowed: true });
    expect(recorded.outcomes).toEqual(['unchecked']);
    expect(recorded.storeFailures()).toBe(1);
  });

  it('lets only the key whose grant failed through unchecked, and keeps counting every other key', async () => {
    const store = new MemoryStore();
    const failingForKey1: TokenStore = {
      take: (request) => (request.key.endsWith(':key-1') ? Promise.reject(new Error('timeout')) : store.take(request)),
    };
    const recorded = recordingSignals();
    const limiter = new RateLimiter(failingForKey1, recorded.signals, { storeRetryMs: 60_000 });
    const terminal: RateLimitPolicy = { name: 'terminal', quota: 1, windowSeconds: 60 };
    await expect(limiter.check(minute(1), 'key-1', start)).resolves.toMatchObject({ allowed: true });
    const others = await Promise.all([
      limiter.check(minute(1), 'key-2', start),
      limiter.check(minute(1), 'key-2', start),
      limiter.check(terminal, 'key-3', start),
      limiter.check(terminal, 'key-3', start),
    ]);
    expect(others.map((decision) => decision.allowed)).toEqual([true, false, true, false]);
    expect(recorded.outcomes).toEqual(['unchecked', 'allowed', 'refused', 'allowed', 'refused']);
  });

  it('spends a grant that answered after the deadline, instead of letting the key through unchecked', async () => {
    let answer: (grant: TokenGrant) => void = () => undefined;
    const late: TokenStore = { take: () => new Promise<TokenGrant>((resolve) => (answer = resolve)) };
    const recorded = recordingSignals();
    const limiter = new RateLimiter(late, recorded.signals, { storeTimeoutMs: 20, storeRetryMs: 60_000 });
    await expect(limiter.check(minute(3), 'key-1', start)).resolves.toMatchObject({ allowed: true });
    answer({ granted: 2, used: 3 });
    await Promise.resolve();
    const decisions = await Promise.all([0, 1, 2].map(() => limiter.check(minute(3), 'key-1', start + 1)));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false]);
    expect(recorded.outcomes).toEqual(['unchecked', 'allowed', 'allowed', 'refused']);
  });

  it('sends a slow store one query per key at a time, however many requests wait', async () => {
    let calls = 0;
    const hanging: TokenStore = {
      take: () => {
        calls += 1;
        return new Promise<TokenGrant>(() => undefined);
      },
    };
    const limiter = new RateLimiter(hanging, recordingSignals().signals, { storeTimeoutMs: 20, storeRetryMs: 10 });
    await limiter.check(minute(100), 'key-1', start);
    const later = await Promise.all(
      Array.from({ length: 20 }, (_, i) => limiter.check(minute(100), 'key-1', start + 1_000 + i)),
    );
    expect(later.every((decision) => decision.allowed)).toBe(true);
    expect(calls).toBe(1);
  });
});
