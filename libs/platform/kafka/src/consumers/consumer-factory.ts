import { Inject, Injectable } from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';
import { Consumer, ConsumerConfig, Kafka } from 'kafkajs';

import { KafkaAdmin } from '../kafka-admin';
import { consumerSettings, KAFKA_CLIENT } from '../kafka-client';

/** The consumers an app opens: in groups named after the service, with the platform's fetch and session settings. */
@Injectable()
export class ConsumerFactory {
  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: Kafka,
    private readonly admin: KafkaAdmin,
    private readonly env: PlatformEnv,
  ) {}

  /** A consumer in the group `<service>.<group>`, once every platform topic exists to subscribe to. */
  async create(group: string, config: Partial<ConsumerConfig> = {}): Promise<Consumer> {
    await this.admin.topicsReady();
    return this.kafka.consumer({ groupId: this.groupId(group), ...consumerSettings, ...config });
  }

  /** Whether every platform topic was there at the last check: a consumer created now starts at once. */
  get topicsPresent(): boolean {
    return this.admin.topicsPresent;
  }

  /** What this service calls its group `group` on the broker (and in traces and metrics). */
  groupId(group: string): string {
    return `${this.env.SERVICE_NAME}.${group}`;
  }
}
