import { Injectable } from '@nestjs/common';
import { BusinessMode } from '@payments/contracts';
import { camelCased, firstRow } from '@payments/platform-database';
import { apiError } from '@payments/platform-envelope';
import { EntityManager } from 'typeorm';

export interface Business {
  businessId: string;
  name: string;
  mode: BusinessMode;
  sweepEnabled: boolean;
  sweepThreshold: bigint;
  sweepIntervalSeconds: number;
}

interface BusinessRow {
  business_id: string;
  name: string;
  mode: BusinessMode;
  sweep_enabled: boolean;
  sweep_threshold: string;
  sweep_interval_seconds: number;
}

/** outlets.tenants: the businesses outlet-service knows, each with its agent assignment, created when it was provisioned. */
@Injectable()
export class BusinessesRepository {
  async find(em: EntityManager, businessId: string): Promise<Business | null> {
    const row = await firstRow<BusinessRow>(
      em,
      `SELECT business_id, name, mode, sweep_enabled, sweep_threshold, sweep_interval_seconds
       FROM outlets.tenants WHERE business_id = $1`,
      [businessId],
    );
    return row ? { ...camelCased(row), sweepThreshold: BigInt(row.sweep_threshold) } : null;
  }

  /** The tenant, or INVALID_TENANT: the business exists for the gateway but has no agent assignment here. */
  async require(em: EntityManager, businessId: string): Promise<Business> {
    const tenant = await this.find(em, businessId);
    if (!tenant) {
      throw apiError('INVALID_TENANT', 'This business has no agent assignment; contact support to complete onboarding');
    }
    return tenant;
  }

  /** True if this call created the tenant. */
  async insert(em: EntityManager, tenant: { businessId: string; name: string; mode: BusinessMode }): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `INSERT INTO outlets.tenants (business_id, name, mode) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING business_id`,
      [tenant.businessId, tenant.name, tenant.mode],
    );
    return rows.length === 1;
  }

  async updateSweepSettings(
    em: EntityManager,
    businessId: string,
    settings: { enabled: boolean; threshold: bigint; intervalSeconds: number },
  ) {
    await em.query(
      `UPDATE outlets.tenants SET sweep_enabled = $2, sweep_threshold = $3, sweep_interval_seconds = $4, next_sweep_at = NULL
       WHERE business_id = $1`,
      [businessId, settings.enabled, settings.threshold.toString(), settings.intervalSeconds],
    );
  }

  /**
   * Claims up to `limit` businesses whose sweep is due, across all businesses, by moving their
   * next sweep time forward; replicas skip each other's rows.
   */
  async claimDueSweeps(em: EntityManager, limit: number): Promise<{ businessId: string; threshold: bigint }[]> {
    // TypeORM answers a raw UPDATE with [rows, affected].
    const [due] = (await em.query(
      `UPDATE outlets.tenants SET next_sweep_at = now() + make_interval(secs => sweep_interval_seconds)
       WHERE business_id IN (
         SELECT business_id FROM outlets.tenants
         WHERE sweep_enabled AND (next_sweep_at IS NULL OR next_sweep_at <= now())
         ORDER BY next_sweep_at NULLS FIRST LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING business_id, sweep_threshold`,
      [limit],
    )) as [{ business_id: string; sweep_threshold: string }[], number];
    return due.map((row) => ({ businessId: row.business_id, threshold: BigInt(row.sweep_threshold) }));
  }
}
