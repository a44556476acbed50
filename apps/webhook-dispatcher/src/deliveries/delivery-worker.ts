import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { WakeUp } from '@payments/platform-async';
import { SpanKind, traceContinued } from '@payments/platform-tracing';
import { DataSource } from 'typeorm';

import { Env, retrySchedule } from '../config/env';
import { Endpoint, EndpointsRepository } from '../endpoints/endpoints.repository';
import { PartnerEndpoint, PartnerEndpointsRepository } from '../endpoints/partner-endpoints.repository';
import { addedEndpointTakesDeliveries, defaultEndpointTakesDeliveries } from '../endpoints/takes-deliveries';
import { standardWebhookHeaders, webhookBody } from '../sending/signer';
import { SendResult, WebhookSender } from '../sending/webhook-sender';
import { AttemptRecorder } from './attempt-recorder';
import { DeliveriesRepository, DeliveryRow } from './deliveries.repository';
import { decide } from './retry-policy';
import { sendCheck } from './send-check';

/** Rows claimed per endpoint at once, in units of its slots: enough to keep them busy between claims. */
const claimDepth = 4;

/**
 * Sends due deliveries with up to WEBHOOK_CONCURRENCY in flight, each endpoint limited to its
 * own few slots, so a slow or dead endpoint holds only its own slots and never delays others.
 * Deliveries are claimed a few per slot at once and wait here for a free slot; outcomes are
 * written back in batches (AttemptRecorder) with the next attempt time.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly schedule: number[];
  private readonly inFlight = new Set<Promise<void>>();
  /** Claimed deliveries waiting for a slot of their endpoint, by URL. */
  private readonly waiting = new Map<string, DeliveryRow[]>();
  private readonly busy = new Map<string, number>();
  private queued = 0;
  private running = false;
  private loop?: Promise<void>;
  private readonly wakeUp = new WakeUp();
  /** Names this instance on the deliveries it leases: the host (a pod's name) and a random part. */
  private readonly claimant = `${hostname()}/${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesRepository,
    private readonly endpoints: EndpointsRepository,
    private readonly partnerEndpoints: PartnerEndpointsRepository,
    private readonly sender: WebhookSender,
    private readonly recorder: AttemptRecorder,
    private readonly env: Env,
  ) {
    this.schedule = retrySchedule(env);
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming, then lets the deliveries in flight finish (each is bounded by the timeout). Waiting ones' leases lapse. */
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    this.signal();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  /** Wakes the loop at once, e.g. after new deliveries were added. */
  nudge(): void {
    this.signal();
  }

  private async run(): Promise<void> {
    const slots = this.env.WEBHOOK_PER_ENDPOINT_CONCURRENCY;
    const claimAhead = this.env.WEBHOOK_CONCURRENCY * claimDepth;
    while (this.running) {
      let claimed = 0;
      let wanted = 0;
      if (this.queued < claimAhead) {
        wanted = claimAhead - this.queued;
        try {
          const rows = await this.deliveries.claim(this.claimant, {
            count: wanted,
            perEndpoint: slots * claimDepth,
            circuitThreshold: this.env.WEBHOOK_CIRCUIT_THRESHOLD,
            // Long enough for every claimed delivery of an endpoint to have its turn in a slot.
            leaseMs: this.env.WEBHOOK_TIMEOUT_MS * claimDepth + 5000,
          });
          claimed = rows.length;
          for (const row of rows) this.enqueue(row);
        } catch (error) {
          this.logger.error({ err: error }, 'claiming deliveries failed');
        }
      }
      this.dispatch();
      // Fewer than asked for: nothing more is claimable now. The loop waits for new deliveries,
      // an endpoint running low on claimed ones, or the poll for retries coming due.
      if (claimed < wanted || wanted === 0) await this.idle();
    }
  }

  private enqueue(row: DeliveryRow): void {
    const url = row.url ?? '';
    this.waiting.set(url, [...(this.waiting.get(url) ?? []), row]);
    this.queued += 1;
  }

  /** Starts every waiting delivery that has a free slot, within the instance's concurrency. */
  private dispatch(): void {
    for (const [url, rows] of this.waiting) {
      while (
        rows.length > 0 &&
        (this.busy.get(url) ?? 0) < this.env.WEBHOOK_PER_ENDPOINT_CONCURRENCY &&
        this.inFlight.size < this.env.WEBHOOK_CONCURRENCY
      ) {
        const row = rows.shift()!;
        this.queued -= 1;
        this.busy.set(url, (this.busy.get(url) ?? 0) + 1);
        let slotHeld = true;
        /** Gives the endpoint's slot back, once; true if this call did. */
        const freeSlot = () => {
          if (!slotHeld) return false;
          slotHeld = false;
          this.busy.set(url, (this.busy.get(url) ?? 1) - 1);
          return true;
        };
        const onAnswer = () => {
          if (freeSlot() && this.running) this.dispatch();
        };
        this.track(url, this.deliver(row, onAnswer), freeSlot);
      }
      if (rows.length === 0) this.waiting.delete(url);
    }
  }

  /** A delivery counts against the instance's concurrency, and holds its lease, until its attempt is recorded. */
  private track(url: string, delivery: Promise<void>, freeSlot: () => boolean): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => {
      const instanceWasFull = this.inFlight.size >= this.env.WEBHOOK_CONCURRENCY;
      this.inFlight.delete(delivery);
      // Another delivery can start now only if this gave back its slot or made room in a full instance.
      if ((freeSlot() || instanceWasFull) && this.running) this.dispatch();
      // Claiming again once an endpoint is down to a slot's worth of claimed deliveries, not
      // after each one: a claim then takes several rows, and costs the same as one taking one.
      // Recording an attempt, not the answer, releases a lease and so makes room for a claim.
      if ((this.waiting.get(url)?.length ?? 0) <= this.env.WEBHOOK_PER_ENDPOINT_CONCURRENCY) this.signal();
    });
  }

  private signal(): void {
    this.wakeUp.ring();
  }

  private idle(): Promise<void> {
    return this.running ? this.wakeUp.sleep(this.env.WEBHOOK_POLL_INTERVAL_MS) : Promise.resolve();
  }

  /**
   * Sends one delivery and records its attempt. Once the endpoint has answered, its slot is freed
   * before the attempt is recorded: a slot limits the requests an endpoint has in progress, and
   * the recording waits for a batch. An attempt that timed out or failed to connect keeps its
   * slot until it is recorded, as the endpoint may still be working on it. Either way the
   * delivery stays leased until it is recorded.
   */
  private async deliver(row: DeliveryRow, onAnswer: () => void): Promise<void> {
    try {
      const startedAt = new Date();
      // Secrets that cannot be opened (a rotated data key) fail the attempt like any other error.
      const endpoint = await this.endpoints.forDelivery(row.business_id).catch((error: Error) => error);
      const added = row.endpoint_id
        ? await this.partnerEndpoints.forDelivery(row.endpoint_id).catch((error: Error) => error)
        : undefined;
      if (added === null) {
        const result = failedWithout('the endpoint was deleted');
        await this.recorder.record({ delivery: row, startedAt, ...result, next: { status: 'failed' } });
        return;
      }
      if (row.target === 'business' && !(endpoint instanceof Error) && endpoint && !this.sendable(endpoint, added)) {
        await this.holdUnlessSendable(row);
        return;
      }
      const failure = [endpoint, added].find((read): read is Error => read instanceof Error);
      if (!failure && (await this.changedSinceClaimed(row, startedAt))) return;
      const result = failure
        ? failedWithout(`cannot open the endpoint's secrets: ${failure.message}`)
        : await this.attempt(row, endpoint as Endpoint | null, added as PartnerEndpoint | undefined);
      const decision = decide(result, row.attempts, this.schedule);
      const next = decision.status === 'gone' ? await this.afterGone(row) : decision;
      if (result.statusCode !== null) onAnswer();
      await this.recorder.record({ delivery: row, startedAt, ...result, next });
    } catch (error) {
      // The lease expires and the delivery is retried: nothing is lost.
      this.logger.error({ err: error, deliveryId: row.id }, 'recording a delivery attempt failed');
    }
  }

  /**
   * Acts on a change to the delivery's endpoint since it was claimed (sendCheck); true when it
   * is not to be sent. Read last before sending, so once a change to an endpoint has committed,
   * no attempt starts to where it pointed before.
   */
  private async changedSinceClaimed(row: DeliveryRow, startedAt: Date): Promise<boolean> {
    const check = sendCheck(row, await this.deliveries.standing(row.id), this.claimant);
    if (check === 'moved') await this.dataSource.transaction((em) => this.deliveries.unclaim(em, row.id));
    if (check === 'closed') await this.holdUnlessSendable(row);
    if (check === 'deleted') {
      const result = failedWithout('the endpoint was deleted');
      await this.recorder.record({ delivery: row, startedAt, ...result, next: { status: 'failed' } });
    }
    return check !== 'send';
  }

  /** Whether the delivery's endpoint takes deliveries now; one whose secrets cannot be opened is tried, and fails. */
  private sendable(endpoint: Endpoint, added: PartnerEndpoint | Error | undefined): boolean {
    if (added instanceof Error) return true;
    return added ? addedEndpointTakesDeliveries(added) : defaultEndpointTakesDeliveries(endpoint);
  }

  /**
   * A URL that answered 410 Gone disables the business's endpoint, and the delivery is held
   * until the business sets a new URL; unless it already did, in which case it goes there.
   */
  private async afterGone(row: DeliveryRow): Promise<{ status: 'pending' | 'held' | 'failed'; delayMs?: number }> {
    if (row.target !== 'business') return { status: 'failed' };
    return this.dataSource.transaction(async (em) => {
      await this.endpoints.lockRouting(em, row.business_id);
      const reason = `${row.url} answered 410 Gone`;
      const disabled = row.endpoint_id
        ? await this.partnerEndpoints.disableIfAt(em, row.endpoint_id, row.url!, reason)
        : await this.endpoints.disableIfAt(em, row.business_id, row.url!, reason);
      return disabled ? { status: 'held' as const } : { status: 'pending' as const, delayMs: 0 };
    });
  }

  /** Holds a claimed delivery whose endpoint has no URL or is disabled, unless that changed meanwhile. */
  private async holdUnlessSendable(row: DeliveryRow): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.endpoints.lockRouting(em, row.business_id);
      let sendable: boolean;
      if (row.endpoint_id) {
        const added = await this.partnerEndpoints.find(row.business_id, row.endpoint_id, em);
        sendable = !!added && addedEndpointTakesDeliveries(added);
      } else {
        const endpoint = await this.endpoints.route(em, row.business_id);
        sendable = !!endpoint && defaultEndpointTakesDeliveries(endpoint);
      }
      if (sendable) await this.deliveries.unclaim(em, row.id);
      else await this.deliveries.hold(em, row.id);
    });
  }

  private async attempt(row: DeliveryRow, endpoint: Endpoint | null, added?: PartnerEndpoint): Promise<SendResult> {
    if (!endpoint) return failedWithout('the business has no webhook endpoint yet');
    if (!row.url) return failedWithout('the delivery has no URL');
    const body = webhookBody(row.event, row.event_data, endpoint.apiKey, endpoint.previousApiKey);
    // Each endpoint signs with its own secret, and with those it rolled away while their grace lasts.
    const secrets = added ?? endpoint;
    const headers = {
      'x-event-id': row.event_id,
      'x-delivery-id': row.id,
      'x-attempt': String(row.attempts),
      ...standardWebhookHeaders([secrets.signingSecret, ...secrets.previousSigningSecrets], row.event_id, body),
    };
    const allowPrivate = endpoint.mode === 'test' && this.env.WEBHOOK_SANDBOX_ALLOW_PRIVATE;
    const url = row.url;
    return traceContinued(row.trace_context, 'POST webhook', SpanKind.CLIENT, attemptAttributes(row), async (span) => {
      const result = await this.sender.send(url, body, headers, allowPrivate);
      if (result.statusCode !== null) span?.setAttribute('http.response.status_code', result.statusCode);
      if (result.error !== null) span?.setAttribute('error.type', result.error);
      return result;
    });
  }
}

/** What a delivery's span says about it: the host only, since a partner's path or query may hold a token. */
function attemptAttributes(row: DeliveryRow) {
  return {
    'http.request.method': 'POST',
    'server.address': URL.parse(row.url ?? '')?.hostname ?? '',
    'webhook.event': row.event,
    'webhook.delivery_id': row.id,
    'webhook.attempt': row.attempts,
  };
}

function failedWithout(error: string): SendResult {
  return { statusCode: null, latencyMs: 0, responseBody: null, error, retryAfterMs: null };
}
