import { Logger } from '@nestjs/common';
import { withinTimeout } from '@payments/platform-async';
import { apiError } from '@payments/platform-envelope';
import { Counter, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { PostgresTokenStore } from './postgres-token-store';
import { RateLimitOverrides } from './rate-limit-overrides';
import { HeaderSink, RateLimitPolicy, writeRateLimitHeaders } from './rate-limit-policy';
import { RateLimiter, RateLimiterOptions, RateLimitSignals } from './rate-limiter';

export interface RateLimitsOptions extends RateLimiterOptions {
  /** How long an operator's override takes to reach every instance. */
  overridesCacheMs?: number;
}

/**
 * An app's rate limits: quotas counted in its own schema across all its instances, operators'
 * per-business overrides, the RateLimit headers on every answer a policy covers, and a 429
 * `RATE_LIMITED` beyond the quota. Trouble with the store lets requests through and shows in
 * `rate_limit_store_failures_total`, never as an error to the caller.
 */
export class RateLimits {
  private readonly logger = new Logger(RateLimits.name);
  private readonly store: PostgresTokenStore;
  private readonly limiter: RateLimiter;
  private readonly overrides: RateLimitOverrides;
  private readonly signals: RateLimitSignals;
  private readonly storeTimeoutMs: number;
  private sweeper?: NodeJS.Timeout;

  constructor(dataSource: DataSource, schema: string, registry: Registry, options: RateLimitsOptions = {}) {
    this.store = new PostgresTokenStore(dataSource, schema);
    this.overrides = new RateLimitOverrides(dataSource, schema, options.overridesCacheMs);
    this.signals = rateLimitSignals(registry);
    this.limiter = new RateLimiter(this.store, this.signals, options);
    this.storeTimeoutMs = options.storeTimeoutMs ?? 250;
  }

  /**
   * Counts one request against `policy` for `key`, with `businessId`'s override when it has one;
   * writes the headers, and throws RATE_LIMITED beyond the quota. No policy (`off`): nothing.
   */
  async admit(reply: HeaderSink, base: RateLimitPolicy | undefined, key: string, businessId?: string): Promise<void> {
    if (!base) return;
    const policy = businessId ? await this.policyFor(base, businessId) : base;
    const decision = await this.limiter.check(policy, key);
    writeRateLimitHeaders(reply, decision);
    if (!decision.allowed) {
      throw apiError(
        'RATE_LIMITED',
        `Too many requests: the limit is ${policy.quota} every ${policy.windowSeconds} s; retry after ${decision.resetSeconds} s`,
        { retryAfterSeconds: decision.resetSeconds },
      );
    }
  }

  /** Starts forgetting ended windows, every `intervalMs` (each instance; the deletes are idempotent). */
  startSweeping(intervalMs = 60_000): void {
    this.sweeper = setInterval(() => {
      this.store.sweep().catch((error: unknown) => this.logger.warn({ err: error }, 'rate limit sweep failed'));
    }, intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
  }

  private async policyFor(base: RateLimitPolicy, businessId: string): Promise<RateLimitPolicy> {
    // Nearly always from the cache: no timer for a read that does not wait.
    const cached = this.overrides.cachedPolicyFor(base, businessId);
    if (cached) return cached;
    try {
      return await withinTimeout(this.overrides.policyFor(base, businessId), this.storeTimeoutMs);
    } catch {
      this.signals.storeFailed(base);
      return base;
    }
  }
}

/** The metrics behind the rate limit alerts (deploy/k8s, PrometheusRule). */
export function rateLimitSignals(registry: Registry): RateLimitSignals {
  const decisions = new Counter({
    name: 'rate_limit_decisions_total',
    help: 'Requests counted against a rate limit: allowed, refused (429), or unchecked (store away: let through)',
    labelNames: ['limit', 'outcome'],
    registers: [registry],
  });
  const storeFailures = new Counter({
    name: 'rate_limit_store_failures_total',
    help: 'Rate limit store calls that failed or timed out; requests went through unchecked meanwhile',
    labelNames: ['limit'],
    registers: [registry],
  });
  return {
    decided: (policy, outcome) => decisions.inc({ limit: policy.name, outcome }),
    storeFailed: (policy) => storeFailures.inc({ limit: policy.name }),
  };
}
