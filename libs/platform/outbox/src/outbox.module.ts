import {
  BeforeApplicationShutdown,
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';
import { KAFKA_CLIENT } from '@payments/platform-kafka';
import { Metrics } from '@payments/platform-metrics';
import { Kafka } from 'kafkajs';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';

import { Outbox, ProcessedEvents } from './outbox';
import { OutboxRelay } from './outbox-relay';

const pruneEveryMs = 10 * 60 * 1000;
const RELAY_ENABLED = Symbol('RELAY_ENABLED');

/**
 * Runs the relay for the app's lifetime (in apps that write the outbox), and prunes old outbox and dedupe rows every ten
 * minutes. On shutdown both finish what they are doing before the pool closes.
 */
@Injectable()
export class OutboxRelayService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelayService.name);
  private readonly relay: OutboxRelay;
  private pruneTimer?: NodeJS.Timeout;
  private pruning: Promise<void> = Promise.resolve();

  constructor(
    dataSource: DataSource,
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    private readonly env: PlatformEnv,
    @Inject(RELAY_ENABLED) private readonly relayEnabled: boolean,
    metrics: Metrics,
  ) {
    const relay = new OutboxRelay(dataSource, kafka, {
      batchSize: env.OUTBOX_BATCH_SIZE,
      pollIntervalMs: env.OUTBOX_POLL_INTERVAL_MS,
      lingerMs: 20,
    });
    this.relay = relay;
    // An event written but not yet on Kafka: its age is how late every consumer of it will be.
    if (relayEnabled) {
      new Gauge({
        name: 'outbox_oldest_unpublished_age_seconds',
        help: 'How long the oldest event in the outbox of this service has waited to be published',
        registers: [metrics.registry],
        async collect() {
          this.set(await relay.oldestUnpublishedSeconds());
        },
      });
    }
  }

  onApplicationBootstrap(): void {
    if (this.relayEnabled) this.relay.start();
    this.pruneTimer = setInterval(() => {
      this.pruning = this.prune(); // never rejects; awaited at shutdown
    }, pruneEveryMs).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pruneTimer);
    await this.pruning;
    await this.relay.stop();
  }

  private async prune(): Promise<void> {
    try {
      const removed = await this.relay.prune({
        sentHours: this.env.OUTBOX_RETENTION_HOURS,
        processedHours: this.env.PROCESSED_EVENTS_RETENTION_HOURS,
      });
      if (removed > 0) this.logger.log({ removed }, 'pruned sent outbox rows and old dedupe records');
    } catch (error) {
      this.logger.warn({ err: error }, 'outbox pruning failed; it runs again later');
    }
  }
}

/**
 * The outbox and the dedupe records. Only an app that writes the outbox runs the relay: in
 * the others it would only poll an empty table. Every app prunes.
 */
@Global()
@Module({})
export class OutboxModule {
  static forRoot(options: { relay: boolean }): DynamicModule {
    return {
      module: OutboxModule,
      providers: [Outbox, ProcessedEvents, OutboxRelayService, { provide: RELAY_ENABLED, useValue: options.relay }],
      exports: [Outbox, ProcessedEvents],
    };
  }
}
