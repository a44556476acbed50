import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { allTopics, isKafkaApp, topicsOf, TopicSpec } from '@payments/contracts';
import { PlatformEnv } from '@payments/platform-config';
import { Admin, Kafka } from 'kafkajs';

import { KAFKA_CLIENT } from './kafka-client';
import { topicShortfalls } from './topics';

/** How often an app whose topics are not there yet looks again. */
const topicsRecheckMs = 5000;

/**
 * The app's admin connection: checks at start that the app's own topics are there as declared
 * (it creates none: `npm run topics:apply` does), and answers readiness probes.
 */
@Injectable()
export class KafkaAdmin implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(KafkaAdmin.name);
  private readonly admin: Admin;
  private ready?: Promise<void>;
  /** What the last check found missing or short; readiness fails while it has anything. */
  private shortfalls: string[] = [];
  private stopped = false;
  /** The topics this app uses (its principal may describe no others); every one for an app not declared. */
  private readonly topics: readonly TopicSpec[];

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka, env: PlatformEnv) {
    this.admin = kafka.admin();
    this.topics = isKafkaApp(env.SERVICE_NAME) ? topicsOf(env.SERVICE_NAME) : allTopics;
  }

  async onModuleInit(): Promise<void> {
    await this.admin.connect();
    this.shortfalls = await topicShortfalls(this.admin, this.topics);
    this.ready = this.shortfalls.length === 0 ? Promise.resolve() : this.untilTopicsExist();
    // Awaited by the consumers that need the topics; a shutdown before they come is no crash.
    this.ready.catch(() => undefined);
  }

  /** Whether every topic of this app was there as declared at the last check. */
  get topicsPresent(): boolean {
    return this.shortfalls.length === 0;
  }

  /** Resolves once every topic of this app is there as declared; anything that subscribes awaits it. */
  topicsReady(): Promise<void> {
    return this.ready ?? Promise.reject(new Error('KafkaAdmin has not checked the topics yet'));
  }

  private async untilTopicsExist(): Promise<void> {
    while (this.shortfalls.length > 0) {
      this.logger.error(`not ready: ${this.topicsProblem()}`);
      await new Promise((resolve) => setTimeout(resolve, topicsRecheckMs).unref());
      if (this.stopped) throw new Error('stopped before the Kafka topics were there');
      this.shortfalls = await topicShortfalls(this.admin, this.topics).catch(() => this.shortfalls);
    }
    this.logger.log('every Kafka topic is there as declared');
  }

  /** What is wrong with this app's topics, for readiness and the logs; empty when nothing is. */
  topicsProblem(): string {
    if (this.shortfalls.length === 0) return '';
    return `Kafka topics not as declared (${this.shortfalls.join('; ')}): an operator runs npm run topics:apply`;
  }

  /** Resolves when a broker answers a metadata request; DependencyWatch looks with it. */
  async reachable(): Promise<void> {
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

  /** Per partition, the offset of the first message written at or after `timestamp` (the end where none was). */
  async offsetsAt(topic: string, timestamp: number): Promise<Map<number, number>> {
    const offsets = await this.admin.fetchTopicOffsetsByTimestamp(topic, timestamp);
    return new Map(offsets.map(({ partition, offset }) => [partition, Number(offset)]));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.admin.disconnect();
  }
}
