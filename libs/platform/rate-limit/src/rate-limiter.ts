import { Logger } from '@nestjs/common';
import { withinTimeout } from '@payments/platform-async';
import { LRUCache } from 'lru-cache';

import { RateDecision, RateLimitPolicy } from './rate-limit-policy';

/** One window of one key, as the shared store is asked to count it. */
export interface TokenRequest {
  key: string;
  windowStart: Date;
  windowEnd: Date;
  quota: number;
  /** How many requests' worth this instance would like to hold at once. */
  want: number;
}

export interface TokenGrant {
  /** Requests this instance may now admit without asking again (0 when the window is spent). */
  granted: number;
  /** What every instance has taken from the window so far, this grant included. */
  used: number;
}

/** The store every instance counts in, so that a quota holds across replicas. */
export interface TokenStore {
  take(request: TokenRequest): Promise<TokenGrant>;
}

/** How a limiter reports what it decided, and that its store did not answer. */
export interface RateLimitSignals {
  decided(policy: RateLimitPolicy, outcome: 'allowed' | 'refused' | 'unchecked'): void;
  storeFailed(policy: RateLimitPolicy): void;
}

export interface RateLimiterOptions {
  /** A grant is at most this share of the quota: what an idle instance can leave unused at worst. */
  leaseShare?: number;
  /** And at most this many requests. */
  maxLease?: number;
  /** A store slower than this is treated as away for the key: its request goes through unchecked. */
  storeTimeoutMs?: number;
  /** After the store failed for a key, how long that key's requests go through without asking it. */
  storeRetryMs?: number;
  /** Keys remembered at once; the least recently seen are forgotten first. */
  maxKeys?: number;
}

/** The part of a window this instance was granted, and what it knows of the whole. */
interface Lease {
  windowIndex: number;
  quota: number;
  tokens: number;
  used: number;
  /** Whether the grant being taken came in time; set until the store answers, even late. */
  refill?: Promise<boolean>;
  /** Until when this key goes unchecked: its grant failed or came late. Other keys are still asked. */
  uncheckedUntil: number;
}

/**
 * Fixed-window quotas shared by every instance through a store, without a store round trip per
 * request: an instance takes a small grant of the window (a lease) and admits that many before
 * it asks again. Grants are taken before requests are admitted, so the instances together
 * never admit more than the quota; at worst an instance that stops receiving a key's requests
 * leaves its last grant unused (bounded by `leaseShare`, and grants shrink as the window fills).
 *
 * A store that fails or is slow lets requests through, counted as `unchecked`: a limiter must
 * never turn its own trouble into the partner's 5xx. Only the key whose grant failed goes
 * unchecked: one slow query (a pool busy with ordinary traffic) must not switch off every limit
 * of the instance. A grant that answers after the deadline is still kept and spent, since the
 * store has already counted it.
 */
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly leases: LRUCache<string, Lease>;
  private readonly leaseShare: number;
  private readonly maxLease: number;
  private readonly storeTimeoutMs: number;
  private readonly storeRetryMs: number;
  /** Warnings are per instance, not per key: an outage would otherwise log once per key. */
  private quietUntil = 0;

  constructor(
    private readonly store: TokenStore,
    private readonly signals: RateLimitSignals,
    options: RateLimiterOptions = {},
  ) {
    this.leaseShare = options.leaseShare ?? 0.02;
    this.maxLease = options.maxLease ?? 100;
    this.storeTimeoutMs = options.storeTimeoutMs ?? 250;
    this.storeRetryMs = options.storeRetryMs ?? 1000;
    this.leases = new LRUCache({ max: options.maxKeys ?? 100_000 });
  }

  async check(policy: RateLimitPolicy, key: string, now = Date.now()): Promise<RateDecision> {
    const windowMs = policy.windowSeconds * 1000;
    const windowIndex = Math.floor(now / windowMs);
    const resetSeconds = Math.max(1, Math.ceil(((windowIndex + 1) * windowMs - now) / 1000));
    const id = `${policy.name}\u0000${key}`;
    const decide = (allowed: boolean, remaining: number, outcome: 'allowed' | 'refused' | 'unchecked') => {
      this.signals.decided(policy, outcome);
      return { policy, allowed, remaining, resetSeconds };
    };

    // Each pass either admits, refuses, or waits for a grant; a grant of at least one request
    // is shared by the requests that waited for it, and those it did not cover ask again.
    for (;;) {
      let lease = this.leases.get(id);
      if (!lease || lease.windowIndex !== windowIndex || lease.quota !== policy.quota) {
        lease = { windowIndex, quota: policy.quota, tokens: 0, used: 0, uncheckedUntil: 0 };
        this.leases.set(id, lease);
      }
      if (lease.tokens > 0) {
        lease.tokens -= 1;
        return decide(true, Math.max(0, policy.quota - lease.used) + lease.tokens, 'allowed');
      }
      if (lease.used >= policy.quota) return decide(false, 0, 'refused');
      if (now < lease.uncheckedUntil) return decide(true, policy.quota - lease.used, 'unchecked');
      lease.refill ??= this.refill(lease, policy, key, windowIndex * windowMs, now);
      if (!(await lease.refill)) return decide(true, policy.quota - lease.used, 'unchecked');
    }
  }

  /**
   * Asks the store for a grant; true when it came within the deadline. A grant that comes later
   * is added to the lease all the same, and until the store has answered no second request for
   * the key is sent: a slow store gets one query per key, not one per request.
   */
  private refill(
    lease: Lease,
    policy: RateLimitPolicy,
    key: string,
    windowStartMs: number,
    now: number,
  ): Promise<boolean> {
    const taking = this.take(lease, policy, key, windowStartMs).finally(() => {
      lease.refill = undefined;
    });
    return withinTimeout(taking, this.storeTimeoutMs).then(
      () => true,
      (error: unknown) => {
        this.signals.storeFailed(policy);
        if (now >= this.quietUntil) {
          this.logger.warn(
            { err: error, limit: policy.name },
            'rate limit store unavailable: letting requests through',
          );
          this.quietUntil = now + this.storeRetryMs;
        }
        lease.uncheckedUntil = now + this.storeRetryMs;
        return false;
      },
    );
  }

  private async take(lease: Lease, policy: RateLimitPolicy, key: string, windowStartMs: number): Promise<void> {
    const grant = await this.store.take({
      key: `${policy.name}:${key}`,
      windowStart: new Date(windowStartMs),
      windowEnd: new Date(windowStartMs + policy.windowSeconds * 1000),
      quota: policy.quota,
      want: Math.max(1, Math.min(this.maxLease, Math.ceil(policy.quota * this.leaseShare))),
    });
    lease.tokens += grant.granted;
    lease.used = Math.max(lease.used, grant.used);
  }
}
