import { Injectable } from '@nestjs/common';
import {
  defaultWebhookEndpointId,
  DeliveryAttemptResponse,
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
} from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { firstRow, singleRow } from '@payments/platform-database';
import { apiError } from '@payments/platform-envelope';
import { DataSource, EntityManager } from 'typeorm';

import { DeliveryStanding } from './send-check';

export type Target = 'business' | 'callback' | 'test' | 'replay';

export interface DeliveryRow {
  id: string;
  business_id: string;
  event_id: string;
  event: string;
  event_data: Record<string, unknown>;
  target: Target;
  /** Null while held for an endpoint that has no URL yet. */
  url: string | null;
  status: 'pending' | 'held' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  created_at: Date;
  /** The W3C trace headers of the event it came from; null while tracing is off. */
  trace_context: Record<string, string> | null;
  /** The instance that last leased it (see claimStatement); null if none has since the column was added. */
  leased_by: string | null;
  /** An endpoint the business added (`we_…`); null for its default endpoint, and for a callback. */
  endpoint_id: string | null;
}

export interface NewDelivery {
  businessId: string;
  eventId: string;
  event: string;
  eventData: Record<string, unknown>;
  target: Target;
  url: string | null;
  /** `held` for an endpoint without a URL or disabled: sent once the business sets one. */
  status?: 'pending' | 'held';
  traceContext?: Record<string, string> | null;
  /** An endpoint the business added; absent for its default endpoint and for a callback. */
  endpointId?: string | null;
}

export interface ClaimLimits {
  count: number;
  perEndpoint: number;
  circuitThreshold: number;
  leaseMs: number;
}

/**
 * DeliveriesRepository.claim's statement. Each endpoint's waiting deliveries come off an index of
 * their own, so a claim costs the number of endpoints and rows it takes, whatever the backlog
 * behind them. A row another claim took since `candidates` read it is skipped on the version
 * `picked` locked (its status and lease), not by filtering `d` again: a filter on `d` would let
 * the planner read every waiting delivery to join them, wherever statistics taken with an empty
 * queue make that look cheap.
 *
 * An endpoint with deliveries leased to another instance has no room here: an endpoint is served
 * by one instance at a time, so its slots are not multiplied by the number of replicas.
 */
export const claimStatement = `WITH RECURSIVE urls AS (
     (SELECT url FROM webhooks.deliveries WHERE status = 'pending' ORDER BY url LIMIT 1)
     UNION ALL
     SELECT (SELECT d.url FROM webhooks.deliveries d WHERE d.status = 'pending' AND d.url > urls.url ORDER BY d.url LIMIT 1)
     FROM urls WHERE urls.url IS NOT NULL
   ),
   room AS (
     SELECT u.url,
       CASE WHEN c.open_until > now() THEN 0 WHEN c.consecutive_failures >= $3 THEN 1 ELSE $2 END
         - (SELECT CASE WHEN bool_or(b.leased_by IS DISTINCT FROM $5) THEN $2 ELSE count(*) END
            FROM webhooks.deliveries b WHERE b.url = u.url AND b.status = 'pending' AND b.lease_until > now()) AS free
     FROM urls u LEFT JOIN webhooks.circuits c ON c.url = u.url
     WHERE u.url IS NOT NULL
   ),
   candidates AS (
     SELECT d.id, d.next_attempt_at FROM room r CROSS JOIN LATERAL (
       SELECT id, next_attempt_at FROM webhooks.deliveries d
       WHERE d.url = r.url AND d.status = 'pending' AND d.next_attempt_at <= now() AND (d.lease_until IS NULL OR d.lease_until <= now())
       ORDER BY d.next_attempt_at LIMIT greatest(r.free, 0)
     ) d
   ),
   picked AS (
     SELECT id, status, lease_until FROM webhooks.deliveries
     WHERE id IN (SELECT id FROM candidates ORDER BY next_attempt_at LIMIT $1)
     FOR UPDATE SKIP LOCKED
   )
   UPDATE webhooks.deliveries d
   SET lease_until = now() + make_interval(secs => $4), leased_by = $5, attempts = attempts + 1, updated_at = now()
   FROM picked WHERE d.id = picked.id AND picked.status = 'pending' AND (picked.lease_until IS NULL OR picked.lease_until <= now())
   RETURNING d.*`;

/** The claim's parameters, in its statement's order; `claimant` names the instance that claims. */
export function claimParameters(claimant: string, limits: ClaimLimits): (number | string)[] {
  return [limits.count, limits.perEndpoint, limits.circuitThreshold, limits.leaseMs / 1000, claimant];
}

/** Deliveries due now across every business, and how long the oldest of them has waited. */
export interface DueBacklog {
  due: number;
  oldestSeconds: number;
}

@Injectable()
export class DeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Idempotent per event and destination: a redelivered Kafka message adds nothing. */
  async add(em: EntityManager, delivery: NewDelivery): Promise<string> {
    const [id] = await this.addMany(em, [delivery]);
    return id;
  }

  /** Many deliveries in one statement; returns their ids in order. */
  async addMany(em: EntityManager, deliveries: NewDelivery[]): Promise<string[]> {
    const ids = deliveries.map(() => newUlid());
    if (deliveries.length === 0) return ids;
    await em.query(
      `INSERT INTO webhooks.deliveries (id, business_id, event_id, event, event_data, target, url, status, trace_context, endpoint_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[], $5::json[], $6::text[], $7::text[], $8::text[], $9::json[], $10::text[])
       ON CONFLICT DO NOTHING`,
      [
        ids,
        deliveries.map((delivery) => delivery.businessId),
        deliveries.map((delivery) => delivery.eventId),
        deliveries.map((delivery) => delivery.event),
        deliveries.map((delivery) => JSON.stringify(delivery.eventData)),
        deliveries.map((delivery) => delivery.target),
        deliveries.map((delivery) => delivery.url),
        deliveries.map((delivery) => delivery.status ?? 'pending'),
        deliveries.map((delivery) => (delivery.traceContext ? JSON.stringify(delivery.traceContext) : null)),
        deliveries.map((delivery) => delivery.endpointId ?? null),
      ],
    );
    return ids;
  }

  /**
   * Leases up to `count` due deliveries to `claimant`, no more per URL than its free slots (one
   * while its circuit is half-open, none while open, none while another instance holds any of
   * its deliveries), oldest first. A lease that expires (the process died mid-delivery) makes the
   * delivery due again. Instances claim one at a time, each seeing the leases of the claims
   * before it: two claiming at once would each find an idle endpoint free and both take its
   * deliveries. A claim is one statement for hundreds of deliveries, so the wait is short.
   */
  async claim(claimant: string, limits: ClaimLimits): Promise<DeliveryRow[]> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks.claims', 0))`);
      const [rows] = (await em.query(claimStatement, claimParameters(claimant, limits))) as [DeliveryRow[], number];
      return rows;
    });
  }

  /** Keeps events whose business has no endpoint record yet; see releaseParked. */
  async park(
    em: EntityManager,
    events: { businessId: string; eventId: string; event: string; eventData: Record<string, unknown> }[],
  ) {
    if (events.length === 0) return;
    await em.query(
      `INSERT INTO webhooks.early_events (event_id, business_id, event, event_data)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::json[]) ON CONFLICT DO NOTHING`,
      [
        events.map((event) => event.eventId),
        events.map((event) => event.businessId),
        events.map((event) => event.event),
        events.map((event) => JSON.stringify(event.eventData)),
      ],
    );
  }

  /** Once the endpoint exists, its parked events become deliveries (held when it has no URL) and leave the park. */
  async releaseParked(em: EntityManager, businessId: string, url: string | null): Promise<void> {
    await em.query(
      `INSERT INTO webhooks.deliveries (id, business_id, event_id, event, event_data, target, url, status)
       SELECT gen_random_uuid()::text, business_id, event_id, event, event_data, 'business', $2, CASE WHEN $2::text IS NULL THEN 'held' ELSE 'pending' END
       FROM webhooks.early_events WHERE business_id = $1 ORDER BY created_at ON CONFLICT DO NOTHING`,
      [businessId, url],
    );
    await em.query(`DELETE FROM webhooks.early_events WHERE business_id = $1`, [businessId]);
  }

  /** A new default endpoint URL: its pending business deliveries go there, and held ones are released to it. */
  async retarget(em: EntityManager, businessId: string, url: string): Promise<void> {
    await em.query(
      `UPDATE webhooks.deliveries SET url = $2, updated_at = now()
        WHERE business_id = $1 AND endpoint_id IS NULL AND target IN ('business', 'test') AND status = 'pending'`,
      [businessId, url],
    );
    await em.query(
      `UPDATE webhooks.deliveries SET status = 'pending', url = $2, next_attempt_at = now(), updated_at = now()
        WHERE business_id = $1 AND endpoint_id IS NULL AND status = 'held'`,
      [businessId, url],
    );
  }

  /**
   * An added endpoint changed: its waiting deliveries follow its URL, and, when it can take
   * them (`release`: enabled and active), its held ones are sent.
   */
  async retargetEndpoint(em: EntityManager, endpointId: string, url: string, release: boolean): Promise<void> {
    await em.query(
      `UPDATE webhooks.deliveries SET url = $2, updated_at = now() WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId, url],
    );
    if (!release) return;
    await em.query(
      `UPDATE webhooks.deliveries SET status = 'pending', url = $2, next_attempt_at = now(), updated_at = now()
        WHERE endpoint_id = $1 AND status = 'held'`,
      [endpointId, url],
    );
  }

  /** An endpoint was deleted: what still waited for it will not be sent. */
  async abandonEndpoint(em: EntityManager, endpointId: string): Promise<void> {
    await em.query(
      `UPDATE webhooks.deliveries SET status = 'failed', updated_at = now()
        WHERE endpoint_id = $1 AND status IN ('pending', 'held') AND (lease_until IS NULL OR lease_until <= now())`,
      [endpointId],
    );
  }

  /**
   * The delivery and its endpoint as they are now: one read by primary keys, made right before
   * each attempt, whatever the sender's cache of the endpoint says. Undefined if the delivery is gone.
   */
  async standing(deliveryId: string): Promise<DeliveryStanding | undefined> {
    return firstRow<DeliveryStanding>(
      this.dataSource,
      `SELECT d.url, d.status, d.leased_by,
         CASE
           WHEN d.endpoint_id IS NOT NULL THEN (SELECT CASE WHEN e.enabled AND e.status = 'active' THEN 'open' ELSE 'closed' END
             FROM webhooks.partner_endpoints e WHERE e.id = d.endpoint_id)
           WHEN d.target = 'business' THEN (SELECT CASE WHEN e.url IS NOT NULL AND e.status = 'active' THEN 'open' ELSE 'closed' END
             FROM webhooks.endpoints e WHERE e.business_id = d.business_id)
           ELSE 'open'
         END AS endpoint
       FROM webhooks.deliveries d WHERE d.id = $1`,
      [deliveryId],
    );
  }

  /** Gives a claimed delivery back without an attempt, to be claimed again at once. */
  async unclaim(em: EntityManager, deliveryId: string): Promise<void> {
    await em.query(
      `UPDATE webhooks.deliveries SET lease_until = NULL, attempts = attempts - 1, updated_at = now() WHERE id = $1`,
      [deliveryId],
    );
  }

  /** Keeps a claimed delivery for later: its endpoint has no URL or is disabled. The claim was no attempt. */
  async hold(em: EntityManager, deliveryId: string): Promise<void> {
    await em.query(
      `UPDATE webhooks.deliveries SET status = 'held', lease_until = NULL, attempts = attempts - 1, updated_at = now() WHERE id = $1`,
      [deliveryId],
    );
  }

  async page(businessId: string, query: ListDeliveriesQuery): Promise<DeliveryPageResponse> {
    const rows = (await this.dataSource.query(
      `SELECT d.*, count(*) OVER () AS total FROM webhooks.deliveries d
       WHERE d.business_id = $1 AND ($2::text IS NULL OR d.status = $2) AND ($3::text IS NULL OR d.event = $3)
         AND ($4::timestamptz IS NULL OR d.created_at >= $4) AND ($5::timestamptz IS NULL OR d.created_at < $5)
         AND ($8::text IS NULL OR (d.target <> 'callback' AND coalesce(d.endpoint_id, 'default') = $8))
       ORDER BY d.created_at DESC, d.id DESC LIMIT $6 OFFSET $7`,
      [
        businessId,
        query.status ?? null,
        query.event ?? null,
        query.from ?? null,
        query.to ?? null,
        query.limit,
        (query.page - 1) * query.limit,
        query.endpointId ?? null,
      ],
    )) as (DeliveryRow & { total: string })[];
    return {
      items: rows.map(toResponse),
      total: rows.length ? Number(rows[0].total) : 0,
      page: query.page,
      limit: query.limit,
    };
  }

  async detail(businessId: string, deliveryId: string): Promise<DeliveryDetailResponse> {
    const delivery = await this.own(businessId, deliveryId);
    const attempts = (await this.dataSource.query(
      `SELECT * FROM webhooks.attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [deliveryId],
    )) as {
      attempt: number;
      started_at: Date;
      latency_ms: number;
      status_code: number | null;
      error: string | null;
      response_body: string | null;
    }[];
    const attemptLog: DeliveryAttemptResponse[] = attempts.map((row) => ({
      attempt: row.attempt,
      startedAt: row.started_at.toISOString(),
      latencyMs: row.latency_ms,
      statusCode: row.status_code,
      error: row.error,
      responseBody: row.response_body,
    }));
    return { ...toResponse(delivery), attemptLog };
  }

  /** The delivery if it belongs to the business; another business's id is simply not found. */
  async own(businessId: string, deliveryId: string): Promise<DeliveryRow> {
    const row = await firstRow<DeliveryRow>(
      this.dataSource,
      `SELECT * FROM webhooks.deliveries WHERE business_id = $1 AND id = $2`,
      [businessId, deliveryId],
    );
    if (!row) throw apiError('DELIVERY_NOT_FOUND', `Delivery ${deliveryId} not found`);
    return row;
  }

  /** Every business's deliveries waiting to be sent now, and how long the oldest has waited. */
  async dueBacklog(): Promise<DueBacklog> {
    const row = await singleRow<{ due: number; oldest: number }>(
      this.dataSource,
      `SELECT count(*)::int AS due, COALESCE(EXTRACT(EPOCH FROM now() - min(next_attempt_at)), 0)::float8 AS oldest
       FROM webhooks.deliveries
       WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until <= now())`,
    );
    return { due: row.due, oldestSeconds: row.oldest };
  }
}

export function toResponse(row: DeliveryRow): DeliveryResponse {
  return {
    deliveryId: row.id,
    eventId: row.event_id,
    event: row.event,
    target: row.target,
    endpointId: row.target === 'callback' ? null : (row.endpoint_id ?? defaultWebhookEndpointId),
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    lastStatusCode: row.last_status_code,
    createdAt: row.created_at.toISOString(),
  };
}
