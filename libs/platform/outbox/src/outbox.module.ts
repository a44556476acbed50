import { Global, Inject, Injectable, Module, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PlatformEnv } from '@payments/platform-config';
import { KAFKA_CLIENT } from '@payments/platform-kafka';
import { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { Outbox, ProcessedEvents } from './outbox';
import { OutboxRelay } from './outbox-relay';

/** Runs the relay for the app's lifetime; on shutdown it finishes its batch before the pool closes. */
@Injectable()
export class OutboxRelayService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly relay: OutboxRelay;

  constructor(@InjectDataSource() dataSource: DataSource, @Inject(KAFKA_CLIENT) kafka: Kafka, env: PlatformEnv) {
    this.relay = new OutboxRelay(dataSource, kafka, {
      batchSize: env.OUTBOX_BATCH_SIZE,
      pollIntervalMs: env.OUTBOX_POLL_INTERVAL_MS,
    });
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }
}

@Global()
@Module({
  providers: [Outbox, ProcessedEvents, OutboxRelayService],
  exports: [Outbox, ProcessedEvents],
})
export class OutboxModule {}
