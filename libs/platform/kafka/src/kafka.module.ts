import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { allTopics } from '@payments/contracts';
import { kafkaBrokerList, PlatformEnv } from '@payments/platform-config';
import { Admin, Kafka } from 'kafkajs';
import { createKafkaClient } from './kafka-client';
import { ensureTopics } from './topics';

export const KAFKA_CLIENT = Symbol('KAFKA_CLIENT');

/** The app's admin connection: creates topics at start and answers readiness probes. */
@Injectable()
export class KafkaAdmin implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(KafkaAdmin.name);
  private readonly admin: Admin;
  private topics?: Promise<void>;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka) {
    this.admin = kafka.admin();
  }

  async onModuleInit(): Promise<void> {
    await this.topicsReady();
  }

  /** Resolves once every platform topic exists; anything that subscribes or sends awaits it. */
  topicsReady(): Promise<void> {
    this.topics ??= (async () => {
      await this.admin.connect();
      await ensureTopics(this.admin, allTopics);
      this.logger.log(`topics ready: ${allTopics.map((topic) => topic.name).join(', ')}`);
    })();
    return this.topics;
  }

  /** Resolves when a broker answers metadata requests; used by /health/ready. */
  async ping(): Promise<void> {
    await this.admin.describeCluster();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.admin.disconnect();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: KAFKA_CLIENT,
      inject: [PlatformEnv],
      useFactory: (env: PlatformEnv) =>
        createKafkaClient({ brokers: kafkaBrokerList(env), clientId: env.KAFKA_CLIENT_ID ?? env.SERVICE_NAME }),
    },
    KafkaAdmin,
  ],
  exports: [KAFKA_CLIENT, KafkaAdmin],
})
export class KafkaModule {}
