import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';

import { RateLimitPolicy } from './rate-limit-policy';

interface OverrideRow {
  quota: number;
  window_seconds: number;
}

/**
 * Operators' per-business quotas (`npm run rate-limit:set`), read through a short cache: a change
 * reaches every instance within `cacheMs`. A business without one gets the policy's default.
 */
export class RateLimitOverrides {
  /** None when `cacheMs` is 0: every read asks (the CLI, tests). */
  private readonly cache?: LRUCache<string, OverrideRow | false>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    cacheMs = 30_000,
  ) {
    if (cacheMs > 0) this.cache = new LRUCache({ max: 50_000, ttl: cacheMs });
  }

  /** The business's policy as last read, without waiting; undefined when it must be read. */
  cachedPolicyFor(base: RateLimitPolicy, businessId: string): RateLimitPolicy | undefined {
    const row = this.cache?.get(`${base.name}\u0000${businessId}`);
    return row === undefined ? undefined : policyOf(base, row);
  }

  /** The business's policy; when its override cannot be read, the default (the caller counts that). */
  async policyFor(base: RateLimitPolicy, businessId: string): Promise<RateLimitPolicy> {
    const id = `${base.name}\u0000${businessId}`;
    let row = this.cache?.get(id);
    if (row === undefined) {
      const rows: OverrideRow[] = await this.dataSource.query(
        `SELECT "quota", "window_seconds" FROM "${this.schema}"."rate_limit_overrides" WHERE "business_id" = $1 AND "policy" = $2`,
        [businessId, base.name],
      );
      row = rows[0] ?? false;
      this.cache?.set(id, row);
    }
    return policyOf(base, row);
  }

  async set(businessId: string, policy: RateLimitPolicy): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "${this.schema}"."rate_limit_overrides" ("business_id", "policy", "quota", "window_seconds")
       VALUES ($1, $2, $3, $4)
       ON CONFLICT ("business_id", "policy") DO UPDATE
         SET "quota" = EXCLUDED."quota", "window_seconds" = EXCLUDED."window_seconds", "updated_at" = now()`,
      [businessId, policy.name, policy.quota, policy.windowSeconds],
    );
  }

  /** Returns whether there was one to clear. */
  async clear(businessId: string, policyName: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "${this.schema}"."rate_limit_overrides" WHERE "business_id" = $1 AND "policy" = $2`,
      [businessId, policyName],
    );
    return affected > 0;
  }
}

function policyOf(base: RateLimitPolicy, row: OverrideRow | false): RateLimitPolicy {
  return row ? { name: base.name, quota: row.quota, windowSeconds: row.window_seconds } : base;
}
