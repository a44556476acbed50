import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Env, retrySchedule } from '../config/env';
import { Endpoint, EndpointsRepository } from '../endpoints/endpoints.repository';
import { standardWebhookHeaders, webhookBody } from '../sending/signer';
import { SendResult, WebhookSender } from '../sending/webhook-sender';
import { DeliveriesRepository, DeliveryRow } from './deliveries.repository';
import { decide, Decision } from './retry-policy';

/**
 * Sends due deliveries with up to WEBHOOK_CONCURRENCY in flight, each endpoint limited to its
 * own few slots, so a slow or dead endpoint holds only its own slots and never delays others.
 * Every outcome is written back to PostgreSQL with the next attempt time.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly schedule: number[];
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesRepository,
    private readonly endpoints: EndpointsRepository,
    private readonly sender: WebhookSender,
    private readonly env: Env,
  ) {
    this.schedule = retrySchedule(env);
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming, then lets the deliveries in flight finish (each is bounded by the timeout). */
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  /** Wakes the loop at once, e.g. after new deliveries were added. */
  nudge(): void {
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.env.WEBHOOK_CONCURRENCY - this.inFlight.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const rows = await this.deliveries.claim({
            count: free,
            perEndpoint: this.env.WEBHOOK_PER_ENDPOINT_CONCURRENCY,
            circuitThreshold: this.env.WEBHOOK_CIRCUIT_THRESHOLD,
            leaseMs: this.env.WEBHOOK_TIMEOUT_MS + 5000,
          });
          claimed = rows.length;
          for (const row of rows) this.track(this.deliver(row));
        } catch (error) {
          this.logger.error({ err: error }, 'claiming deliveries failed');
        }
      }
      if (claimed === 0 || claimed < free) await this.idle();
    }
  }

  private track(delivery: Promise<void>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => {
      this.inFlight.delete(delivery);
      this.wake?.();
    });
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.env.WEBHOOK_POLL_INTERVAL_MS);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async deliver(row: DeliveryRow): Promise<void> {
    try {
      const startedAt = new Date();
      // Secrets that cannot be opened (a rotated data key) fail the attempt like any other error.
      const endpoint = await this.endpoints.find(row.business_id).catch((error: Error) => error);
      if (row.target === 'business' && !(endpoint instanceof Error) && endpoint && (endpoint.status === 'disabled' || !endpoint.url)) {
        await this.holdUnlessSendable(row);
        return;
      }
      const result = endpoint instanceof Error ? failedWithout(`cannot open the endpoint's secrets: ${endpoint.message}`) : await this.attempt(row, endpoint);
      const decision = decide(result, row.attempts, this.schedule);
      await this.dataSource.transaction(async (em) => {
        await this.deliveries.recordAttempt(em, row, { startedAt, ...result }, await this.next(em, row, decision));
        await this.updateCircuit(em, row.url!, decision.status === 'succeeded');
      });
    } catch (error) {
      // The lease expires and the delivery is retried: nothing is lost.
      this.logger.error({ err: error, deliveryId: row.id }, 'recording a delivery attempt failed');
    }
  }

  /**
   * A URL that answered 410 Gone disables the business's endpoint, and the delivery is held
   * until the business sets a new URL; unless it already did, in which case it goes there.
   */
  private async next(em: EntityManager, row: DeliveryRow, decision: Decision): Promise<{ status: 'pending' | 'held' | 'succeeded' | 'failed'; delayMs?: number }> {
    if (decision.status !== 'gone') return decision;
    if (row.target !== 'business') return { status: 'failed' };
    await this.endpoints.lockRouting(em, row.business_id);
    const disabled = await this.endpoints.disableIfAt(em, row.business_id, row.url!, `${row.url} answered 410 Gone`);
    return disabled ? { status: 'held' } : { status: 'pending', delayMs: 0 };
  }

  /** Holds a claimed delivery whose endpoint has no URL or is disabled, unless a URL was set meanwhile. */
  private async holdUnlessSendable(row: DeliveryRow): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.endpoints.lockRouting(em, row.business_id);
      const endpoint = await this.endpoints.route(em, row.business_id);
      if (endpoint?.url && endpoint.status === 'active') await this.deliveries.unclaim(em, row.id);
      else await this.deliveries.hold(em, row.id);
    });
  }

  private async attempt(row: DeliveryRow, endpoint: Endpoint | null): Promise<SendResult> {
    if (!endpoint) return failedWithout('the business has no webhook endpoint yet');
    if (!row.url) return failedWithout('the delivery has no URL');
    const body = webhookBody(row.event, row.event_data, endpoint.apiKey);
    const headers = {
      'x-event-id': row.event_id,
      'x-delivery-id': row.id,
      'x-attempt': String(row.attempts),
      ...standardWebhookHeaders(endpoint.signingSecret, row.event_id, body),
    };
    const allowPrivate = endpoint.mode === 'test' && this.env.WEBHOOK_SANDBOX_ALLOW_PRIVATE;
    return this.sender.send(row.url, body, headers, allowPrivate);
  }

  private async updateCircuit(em: EntityManager, url: string, succeeded: boolean): Promise<void> {
    if (succeeded) {
      await em.query(`UPDATE webhooks.circuits SET consecutive_failures = 0, open_until = NULL WHERE url = $1`, [url]);
      return;
    }
    await em.query(
      `INSERT INTO webhooks.circuits AS c (url, consecutive_failures) VALUES ($1, 1)
       ON CONFLICT (url) DO UPDATE SET consecutive_failures = c.consecutive_failures + 1,
         open_until = CASE WHEN c.consecutive_failures + 1 >= $2 THEN now() + make_interval(secs => $3) ELSE c.open_until END`,
      [url, this.env.WEBHOOK_CIRCUIT_THRESHOLD, this.env.WEBHOOK_CIRCUIT_COOLDOWN_MS / 1000],
    );
  }
}

function failedWithout(error: string): SendResult {
  return { statusCode: null, latencyMs: 0, responseBody: null, error, retryAfterMs: null };
}
