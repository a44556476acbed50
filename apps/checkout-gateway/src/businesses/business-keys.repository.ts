import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { Business } from './business.entity';
import { BusinessKey } from './business-key.entity';

export type KeyAuditAction = 'created' | 'rolled' | 'expired';

export interface KeyAuditRow {
  action: KeyAuditAction;
  api_key_hint: string | null;
  actor: string | null;
  at: Date;
}

/** gateway.business_keys and gateway.key_audit; every method but the lookup by key takes the business id. */
@Injectable()
export class BusinessKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    em: EntityManager,
    key: Pick<BusinessKey, 'apiKeyHash' | 'businessId' | 'apiKeyHint' | 'apiKeySealed' | 'apiSecretHash'>,
  ): Promise<void> {
    await em.insert(BusinessKey, key);
  }

  /** The key that is in use or still in its grace period, with its business; null for any other. */
  async findUsable(apiKeyHash: string): Promise<{ business: Business; key: BusinessKey } | null> {
    const key = await this.dataSource
      .getRepository(BusinessKey)
      .createQueryBuilder('key')
      .where('key.apiKeyHash = :apiKeyHash', { apiKeyHash })
      .andWhere('(key.expiresAt IS NULL OR key.expiresAt > now())')
      .getOne();
    if (!key) return null;
    const business = await this.dataSource.getRepository(Business).findOneByOrFail({ id: key.businessId });
    return { business, key };
  }

  /** Serialises rolls of one business: held until the caller's transaction ends. */
  async lockBusiness(em: EntityManager, businessId: string): Promise<void> {
    await em.query(`SELECT id FROM gateway.businesses WHERE id = $1 FOR UPDATE`, [businessId]);
  }

  async inUse(em: EntityManager, businessId: string): Promise<BusinessKey | null> {
    return em
      .getRepository(BusinessKey)
      .createQueryBuilder('key')
      .where('key.businessId = :businessId', { businessId })
      .andWhere('key.expiresAt IS NULL')
      .getOne();
  }

  /** Ends at once the grace of pairs rolled before: at most two pairs work at any time. */
  async expireRolled(em: EntityManager, businessId: string): Promise<void> {
    await em.query(
      `UPDATE gateway.business_keys SET expires_at = now() WHERE business_id = $1 AND expires_at > now()`,
      [businessId],
    );
  }

  /** Starts the grace period of the pair in use; when it ends. */
  async startGrace(em: EntityManager, businessId: string, apiKeyHash: string, hours: number): Promise<Date> {
    const [rows] = (await em.query(
      `UPDATE gateway.business_keys SET expires_at = now() + make_interval(hours => $3)
       WHERE business_id = $1 AND api_key_hash = $2 RETURNING expires_at`,
      [businessId, apiKeyHash, hours],
    )) as [{ expires_at: Date }[], number];
    return rows[0].expires_at;
  }

  async audit(
    em: EntityManager,
    businessId: string,
    action: KeyAuditAction,
    apiKeyHint: string | null,
    actor: string | null,
  ): Promise<void> {
    await em.query(`INSERT INTO gateway.key_audit (business_id, action, api_key_hint, actor) VALUES ($1, $2, $3, $4)`, [
      businessId,
      action,
      apiKeyHint,
      actor,
    ]);
  }

  /** The business's pairs, newest first (those that expired long ago too, up to `limit`). */
  async list(businessId: string, limit = 20): Promise<BusinessKey[]> {
    return this.dataSource
      .getRepository(BusinessKey)
      .find({ where: { businessId }, order: { createdAt: 'DESC' }, take: limit });
  }

  /** The business's audit trail, newest first. */
  async auditTrail(businessId: string, limit = 50): Promise<KeyAuditRow[]> {
    return (await this.dataSource.query(
      `SELECT action, api_key_hint, actor, at FROM gateway.key_audit WHERE business_id = $1 ORDER BY id DESC LIMIT $2`,
      [businessId, limit],
    )) as KeyAuditRow[];
  }

  /** Writes an `expired` audit entry for each pair whose grace has ended since the last call; how many. Replicas skip each other's rows. */
  async recordExpiries(limit = 500): Promise<number> {
    const recorded = (await this.dataSource.query(
      `WITH due AS (
         SELECT api_key_hash FROM gateway.business_keys
         WHERE expires_at <= now() AND expiry_recorded_at IS NULL
         ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
       ), expired AS (
         UPDATE gateway.business_keys k SET expiry_recorded_at = now() FROM due
         WHERE k.api_key_hash = due.api_key_hash RETURNING k.business_id, k.api_key_hint, k.expires_at
       )
       INSERT INTO gateway.key_audit (business_id, action, api_key_hint, at)
       SELECT business_id, 'expired', api_key_hint, expires_at FROM expired RETURNING id`,
      [limit],
    )) as unknown[];
    return recorded.length;
  }
}
