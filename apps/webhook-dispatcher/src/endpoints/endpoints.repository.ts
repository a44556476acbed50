import { randomBytes } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { BusinessMode } from '@payments/contracts';
import { ApiKeySealer, WebhookSecretSealer } from '@payments/platform-crypto';
import { firstRow } from '@payments/platform-database';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager } from 'typeorm';

import { RolledSecretColumns, rolledSecrets, rollSecretStatement } from './rolled-secrets';

export interface Endpoint {
  businessId: string;
  mode: BusinessMode;
  url: string | null;
  apiKey: string;
  /** The key the business rolled, while its grace lasts: webhooks carry its signature too. */
  previousApiKey: string | null;
  signingSecret: string;
  /** The secrets rolled away, while their grace lasts: webhook-signature carries their signatures too. */
  previousSigningSecrets: string[];
  /** When the last of them stops signing. */
  previousSecretExpiresAt: Date | null;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  createdAt: Date;
}

interface EndpointRow extends RolledSecretColumns {
  business_id: string;
  mode: BusinessMode;
  url: string | null;
  api_key_sealed: string;
  previous_api_key_sealed: string | null;
  previous_key_expires_at: Date | null;
  signing_secret_sealed: string;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  created_at: Date;
}

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes, base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** How long a sender trusts what it read of an endpoint; a change made by another instance shows within this. */
const senderCacheMs = 5000;

/** A business's webhook endpoint. Secrets stay sealed at rest and are opened only to sign. */
@Injectable()
export class EndpointsRepository {
  private readonly forSending = new LRUCache<string, { endpoint: Endpoint | null }>({
    max: 10_000,
    ttl: senderCacheMs,
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly apiKeys: ApiKeySealer,
    private readonly secrets: WebhookSecretSealer,
  ) {}

  async provision(
    em: EntityManager,
    endpoint: { businessId: string; mode: BusinessMode; url: string | null; sealedApiKey: string },
  ) {
    const signingSecret = newSigningSecret();
    await em.query(
      `INSERT INTO webhooks.endpoints (business_id, mode, url, api_key_sealed, signing_secret_sealed) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [
        endpoint.businessId,
        endpoint.mode,
        endpoint.url,
        endpoint.sealedApiKey,
        this.secrets.seal(signingSecret, endpoint.businessId),
      ],
    );
  }

  /**
   * Serialises, per business, everything that decides where its events go: routing an event,
   * provisioning the endpoint (which releases parked events) and setting a URL (which releases
   * held ones). Held until the caller's transaction ends.
   */
  async lockRouting(em: EntityManager, ...businessIds: string[]): Promise<void> {
    // In one order for every caller, so two lockers of overlapping sets queue instead of deadlocking.
    await em.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('webhooks.routing:' || id, 0)) FROM unnest($1::text[]) AS id ORDER BY id`,
      [[...new Set(businessIds)].sort()],
    );
  }

  /** Where and whether to deliver, without opening any secret; call under lockRouting. */
  async route(em: EntityManager, businessId: string): Promise<Pick<Endpoint, 'url' | 'status'> | null> {
    return (await this.routes(em, [businessId])).get(businessId) ?? null;
  }

  /** route() for many businesses at once; one without an endpoint record is absent. */
  async routes(em: EntityManager, businessIds: string[]): Promise<Map<string, Pick<Endpoint, 'url' | 'status'>>> {
    const rows = (await em.query(
      `SELECT business_id, url, status FROM webhooks.endpoints WHERE business_id = ANY($1)`,
      [businessIds],
    )) as (Pick<Endpoint, 'url' | 'status'> & { business_id: string })[];
    return new Map(rows.map(({ business_id, url, status }) => [business_id, { url, status }]));
  }

  /** find() for the sender: read at most every few seconds per business, as every delivery needs it. */
  async forDelivery(businessId: string): Promise<Endpoint | null> {
    const cached = this.forSending.get(businessId);
    if (cached) return cached.endpoint;
    const endpoint = await this.find(businessId);
    this.forSending.set(businessId, { endpoint });
    return endpoint;
  }

  async find(businessId: string, em: EntityManager = this.dataSource.manager): Promise<Endpoint | null> {
    const row = await firstRow<EndpointRow>(em, `SELECT * FROM webhooks.endpoints WHERE business_id = $1`, [
      businessId,
    ]);
    if (!row) return null;
    return {
      businessId: row.business_id,
      mode: row.mode,
      url: row.url,
      // Sealed by the gateway, bound to the business id.
      apiKey: this.apiKeys.open(row.api_key_sealed, row.business_id),
      previousApiKey:
        row.previous_api_key_sealed && row.previous_key_expires_at && row.previous_key_expires_at > new Date()
          ? this.apiKeys.open(row.previous_api_key_sealed, row.business_id)
          : null,
      signingSecret: this.secrets.open(row.signing_secret_sealed, row.business_id),
      ...rolledSecrets(this.secrets, row, row.business_id),
      status: row.status,
      disabledReason: row.disabled_reason,
      createdAt: row.created_at,
    };
  }

  /** A new signing secret; the current one keeps signing beside it until `graceHours` have passed. */
  async rollSecret(em: EntityManager, businessId: string, graceHours: number): Promise<void> {
    this.forSending.delete(businessId);
    await em.query(rollSecretStatement('endpoints', 'business_id'), [
      businessId,
      this.secrets.seal(newSigningSecret(), businessId),
      graceHours,
    ]);
  }

  /** The business rolled its API key: sign with the new one, and with the previous one until `previousExpiresAt`. */
  async rollApiKey(
    em: EntityManager,
    businessId: string,
    sealedApiKey: string,
    previousExpiresAt: Date,
  ): Promise<void> {
    this.forSending.delete(businessId);
    await em.query(
      `UPDATE webhooks.endpoints SET previous_api_key_sealed = api_key_sealed, previous_key_expires_at = $3,
         api_key_sealed = $2, updated_at = now() WHERE business_id = $1`,
      [businessId, sealedApiKey, previousExpiresAt],
    );
  }

  /** A new URL also re-activates an endpoint disabled by 410 Gone. */
  async setUrl(em: EntityManager, businessId: string, url: string): Promise<void> {
    this.forSending.delete(businessId);
    await em.query(
      `UPDATE webhooks.endpoints SET url = $2, status = 'active', disabled_reason = NULL, updated_at = now() WHERE business_id = $1`,
      [businessId, url],
    );
  }

  /** Disables the endpoint if it still points at `url`; false when the business has moved on to another URL. */
  async disableIfAt(em: EntityManager, businessId: string, url: string, reason: string): Promise<boolean> {
    this.forSending.delete(businessId);
    const [, affected] = (await em.query(
      `UPDATE webhooks.endpoints SET status = 'disabled', disabled_reason = $3, updated_at = now() WHERE business_id = $1 AND url = $2`,
      [businessId, url, reason],
    )) as [unknown, number];
    return affected === 1;
  }
}
