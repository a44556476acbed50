import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EventEnvelope } from '@payments/contracts';
import { WorkerLoop } from '@payments/platform-bootstrap';
import { DomainError } from '@payments/platform-envelope';
import { Metrics } from '@payments/platform-metrics';
import { Gauge } from 'prom-client';

import { AwaitedKind, AwaitingOnboardingRepository } from './awaiting-onboarding.repository';

const releaseEveryMs = 30_000;
const releaseBatch = 100;

/**
 * Money events of a business that outlet-service does not know yet. Its onboarding travels on
 * another topic and normally lands first; when it has not, the event waits in a table rather
 * than on its partition, where it would hold up every other business's money behind it (for
 * ever, were the business never onboarded). Onboarding a business releases what waited for it,
 * and a periodic pass catches what arrived in between. Handlers are idempotent, so an event
 * released twice, by two replicas or after a crash, takes effect once.
 */
@Injectable()
export class AwaitingOnboarding implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AwaitingOnboarding.name);
  private readonly handlers = new Map<AwaitedKind, (event: EventEnvelope<never>) => Promise<void>>();
  private readonly worker = new WorkerLoop(AwaitingOnboarding.name, releaseEveryMs, () => this.releaseOnboarded());

  constructor(
    private readonly awaiting: AwaitingOnboardingRepository,
    metrics: Metrics,
  ) {
    const held = () => awaiting.count();
    new Gauge({
      name: 'outlet_events_awaiting_onboarding',
      help: 'Money events held until their business is onboarded in outlet-service',
      registers: [metrics.registry],
      async collect() {
        this.set(await held());
      },
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  /** How an event of `kind` is applied; each consumer registers its own once. */
  register<P>(kind: AwaitedKind, apply: (event: EventEnvelope<P>) => Promise<void>): void {
    this.handlers.set(kind, apply as (event: EventEnvelope<never>) => Promise<void>);
  }

  /**
   * Applies the event, with its kind's handler or `now` when the caller wants the result, or
   * keeps it for later (answering undefined) if its business is not onboarded here yet.
   */
  async apply<P extends { businessId: string }, R = void>(
    kind: AwaitedKind,
    event: EventEnvelope<P>,
    now?: () => Promise<R>,
  ): Promise<R | undefined> {
    try {
      if (now) return await now();
      await this.handler(kind)(event as EventEnvelope<never>);
      return undefined;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'INVALID_TENANT')) throw error;
      await this.awaiting.hold(event.payload.businessId, kind, event);
      this.logger.warn(
        { eventId: event.eventId, businessId: event.payload.businessId, kind },
        'business not onboarded here yet: event held until it is',
      );
      return undefined;
    }
  }

  /** A business was onboarded: release what waited for it now rather than at the next pass. */
  onboarded(): void {
    this.worker.wake();
  }

  /** Applies held events whose business is now onboarded, oldest first; true if there may be more. */
  async releaseOnboarded(): Promise<boolean> {
    const rows = await this.awaiting.onboarded(releaseBatch);
    for (const row of rows) {
      await this.handler(row.kind)(row.event as EventEnvelope<never>);
      await this.awaiting.release(row.event_id);
    }
    if (rows.length > 0) this.logger.log({ released: rows.length }, 'released events held for onboarding');
    return rows.length === releaseBatch;
  }

  private handler(kind: AwaitedKind): (event: EventEnvelope<never>) => Promise<void> {
    const handler = this.handlers.get(kind);
    if (!handler) throw new Error(`no handler registered for ${kind} events`);
    return handler;
  }
}
