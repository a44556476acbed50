import { Injectable } from '@nestjs/common';
import { WebhookEndpointDetailResponse } from '@payments/contracts';
import { WebhookSecretSealer } from '@payments/platform-crypto';
import { singleRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/** The roll a key was first used for, and its answer once that roll committed. */
export interface KeyedRoll {
  endpointId: string;
  gracePeriodHours: number;
  response: WebhookEndpointDetailResponse | null;
}

/**
 * webhooks.secret_rolls: a roll's Idempotency-Key and its answer, written in the roll's own
 * transaction. The answer holds the new secret, so it is sealed as the endpoint's secrets are.
 */
@Injectable()
export class SecretRollsRepository {
  constructor(private readonly sealer: WebhookSecretSealer) {}

  /**
   * Null when this request took the key; otherwise the roll that did. A second request with the
   * key waits here until the first one's transaction ends, so two at once roll once.
   */
  async claim(
    em: EntityManager,
    businessId: string,
    key: string,
    roll: { endpointId: string; gracePeriodHours: number },
  ): Promise<KeyedRoll | null> {
    const claimed: unknown[] = await em.query(
      `INSERT INTO webhooks.secret_rolls (business_id, idempotency_key, endpoint_id, grace_period_hours)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING idempotency_key`,
      [businessId, key, roll.endpointId, roll.gracePeriodHours],
    );
    if (claimed.length === 1) return null;
    const row = await singleRow<{ endpoint_id: string; grace_period_hours: number; response_sealed: string | null }>(
      em,
      `SELECT endpoint_id, grace_period_hours, response_sealed FROM webhooks.secret_rolls
        WHERE business_id = $1 AND idempotency_key = $2`,
      [businessId, key],
    );
    return {
      endpointId: row.endpoint_id,
      gracePeriodHours: row.grace_period_hours,
      response: row.response_sealed
        ? this.sealer.openJson<WebhookEndpointDetailResponse>(row.response_sealed, businessId)
        : null,
    };
  }

  async saveResponse(
    em: EntityManager,
    businessId: string,
    key: string,
    response: WebhookEndpointDetailResponse,
  ): Promise<void> {
    await em.query(
      `UPDATE webhooks.secret_rolls SET response_sealed = $3 WHERE business_id = $1 AND idempotency_key = $2`,
      [businessId, key, this.sealer.seal(JSON.stringify(response), businessId)],
    );
  }
}
