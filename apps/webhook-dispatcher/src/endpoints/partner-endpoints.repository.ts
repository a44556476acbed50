import { Injectable } from '@nestjs/common';
import { newUlid, WebhookSecretSealer } from '@payments/platform-crypto';
import { firstRow } from '@payments/platform-database';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager } from 'typeorm';

import { newSigningSecret } from './endpoints.repository';
import { RolledSecretColumns, rolledSecrets, rollSecretStatement } from './rolled-secrets';

/** An endpoint a business added beside its default one. */
export interface PartnerEndpoint {
  id: string;
  businessId: string;
  url: string;
  /** `['*']`, or the events it receives. */
  events: string[];
  description: string | null;
  enabled: boolean;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  signingSecret: string;
  /** The secrets rolled away, while their grace lasts: webhook-signature carries their signatures too. */
  previousSigningSecrets: string[];
  /** When the last of them stops signing. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
}

/** Where an event may go: enough to route it, without opening a secret. */
export type EndpointRoute = Pick<PartnerEndpoint, 'id' | 'url' | 'events' | 'enabled' | 'status'>;

interface PartnerEndpointRow extends RolledSecretColumns {
  id: string;
  business_id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  signing_secret_sealed: string;
  created_at: Date;
}

/** Whether an endpoint's filter takes `event`. */
export function subscribes(endpoint: Pick<PartnerEndpoint, 'events'>, event: string): boolean {
  return endpoint.events.includes('*') || endpoint.events.includes(event);
}

/** How long a sender trusts what it read of an endpoint; a change made by another instance shows within this. */
const senderCacheMs = 5000;

/** webhooks.partner_endpoints: secrets sealed at rest, bound to the endpoint's id, opened only to sign and show. */
@Injectable()
export class PartnerEndpointsRepository {
  private readonly forSending = new LRUCache<string, { endpoint: PartnerEndpoint | null }>({
    max: 10_000,
    ttl: senderCacheMs,
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly sealer: WebhookSecretSealer,
  ) {}

  async list(businessId: string): Promise<PartnerEndpoint[]> {
    const rows: PartnerEndpointRow[] = await this.dataSource.query(
      `SELECT * FROM webhooks.partner_endpoints WHERE business_id = $1 ORDER BY created_at, id`,
      [businessId],
    );
    return rows.map((row) => this.toEndpoint(row));
  }

  /** The business's endpoint, or null for an id it does not own. */
  async find(
    businessId: string,
    id: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<PartnerEndpoint | null> {
    const row = await firstRow<PartnerEndpointRow>(
      em,
      `SELECT * FROM webhooks.partner_endpoints WHERE business_id = $1 AND id = $2`,
      [businessId, id],
    );
    return row ? this.toEndpoint(row) : null;
  }

  async count(em: EntityManager, businessId: string): Promise<number> {
    const rows: { n: number }[] = await em.query(
      `SELECT count(*)::int AS n FROM webhooks.partner_endpoints WHERE business_id = $1`,
      [businessId],
    );
    return rows[0].n;
  }

  async create(
    em: EntityManager,
    endpoint: { businessId: string; url: string; events: string[]; description: string | null; enabled: boolean },
  ): Promise<string> {
    const id = `we_${newUlid()}`;
    await em.query(
      `INSERT INTO webhooks.partner_endpoints (id, business_id, url, events, description, enabled, signing_secret_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        endpoint.businessId,
        endpoint.url,
        endpoint.events,
        endpoint.description,
        endpoint.enabled,
        this.sealer.seal(newSigningSecret(), id),
      ],
    );
    return id;
  }

  /** Applies the changes given; a new URL also re-activates an endpoint disabled by 410 Gone. */
  async update(
    em: EntityManager,
    id: string,
    changes: { url?: string; events?: string[]; description?: string; enabled?: boolean },
  ): Promise<void> {
    this.forSending.delete(id);
    await em.query(
      `UPDATE webhooks.partner_endpoints SET
         url = coalesce($2, url),
         events = coalesce($3, events),
         description = coalesce($4, description),
         enabled = coalesce($5, enabled),
         status = CASE WHEN $2::text IS NULL THEN status ELSE 'active' END,
         disabled_reason = CASE WHEN $2::text IS NULL THEN disabled_reason ELSE NULL END,
         updated_at = now()
       WHERE id = $1`,
      [id, changes.url ?? null, changes.events ?? null, changes.description ?? null, changes.enabled ?? null],
    );
  }

  async delete(em: EntityManager, id: string): Promise<void> {
    this.forSending.delete(id);
    await em.query(`DELETE FROM webhooks.partner_endpoints WHERE id = $1`, [id]);
  }

  /** A new signing secret; the current one keeps signing beside it until `graceHours` have passed. */
  async rollSecret(em: EntityManager, id: string, graceHours: number): Promise<void> {
    this.forSending.delete(id);
    await em.query(rollSecretStatement('partner_endpoints', 'id'), [
      id,
      this.sealer.seal(newSigningSecret(), id),
      graceHours,
    ]);
  }

  /** Every endpoint of these businesses, to route their events; call under EndpointsRepository.lockRouting. */
  async routes(em: EntityManager, businessIds: string[]): Promise<Map<string, EndpointRoute[]>> {
    const rows: (EndpointRoute & { business_id: string })[] = await em.query(
      `SELECT business_id, id, url, events, enabled, status FROM webhooks.partner_endpoints
        WHERE business_id = ANY($1) ORDER BY created_at, id`,
      [businessIds],
    );
    const routes = new Map<string, EndpointRoute[]>();
    for (const { business_id, ...route } of rows) routes.set(business_id, [...(routes.get(business_id) ?? []), route]);
    return routes;
  }

  /** find() for the sender: read at most every few seconds per endpoint. Null once deleted. */
  async forDelivery(id: string): Promise<PartnerEndpoint | null> {
    const cached = this.forSending.get(id);
    if (cached) return cached.endpoint;
    const row = await firstRow<PartnerEndpointRow>(
      this.dataSource,
      `SELECT * FROM webhooks.partner_endpoints WHERE id = $1`,
      [id],
    );
    const endpoint = row ? this.toEndpoint(row) : null;
    this.forSending.set(id, { endpoint });
    return endpoint;
  }

  /** Disables the endpoint if it still points at `url`; false when it has moved on to another URL. */
  async disableIfAt(em: EntityManager, id: string, url: string, reason: string): Promise<boolean> {
    this.forSending.delete(id);
    const [, affected] = (await em.query(
      `UPDATE webhooks.partner_endpoints SET status = 'disabled', disabled_reason = $3, updated_at = now() WHERE id = $1 AND url = $2`,
      [id, url, reason],
    )) as [unknown, number];
    return affected === 1;
  }

  private toEndpoint(row: PartnerEndpointRow): PartnerEndpoint {
    return {
      id: row.id,
      businessId: row.business_id,
      url: row.url,
      events: row.events,
      description: row.description,
      enabled: row.enabled,
      status: row.status,
      disabledReason: row.disabled_reason,
      signingSecret: this.sealer.open(row.signing_secret_sealed, row.id),
      ...rolledSecrets(this.sealer, row, row.id),
      createdAt: row.created_at,
    };
  }
}
