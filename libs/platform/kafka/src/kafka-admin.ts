import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { allTopics } from '@payments/contracts';
import { Admin, Kafka } from 'kafkajs';

import { KAFKA_CLIENT } from './kafka-client';
import { ensureTopics } from './topics';

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

  /** A group's committed offsets, keyed `topic:partition`; partitions it never committed are absent. */
  async committedOffsets(groupId: string, topics: string[]): Promise<Map<string, number>> {
    const offsets = await this.admin.fetchOffsets({ groupId, topics });
    return new Map(
      offsets.flatMap(({ topic, partitions }) =>
        partitions
          .filter(({ offset }) => Number(offset) >= 0)
          .map(({ partition, offset }) => [`${topic}:${partition}`, Number(offset)] as const),
      ),
    );
  }

  /** Each partition's first and next offsets. */
  async endOffsets(topic: string): Promise<{ partition: number; low: number; high: number }[]> {
    return (await this.admin.fetchTopicOffsets(topic)).map(({ partition, low, high }) => ({
      partition,
      low: Number(low),
      high: Number(high),
    }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.admin.disconnect();
  }
}
