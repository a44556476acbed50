import { PlatformEnv } from '@payments/platform-config';
import type { ConsumerConfig, Kafka } from 'kafkajs';

import { KafkaAdmin } from '../kafka-admin';
import { consumerSettings } from '../kafka-client';
import { ConsumerFactory } from './consumer-factory';

describe('ConsumerFactory', () => {
  const env = Object.assign(new PlatformEnv(), { SERVICE_NAME: 'outlet-service' });

  it("names each group after the service, with the platform's settings, once the topics exist", async () => {
    const steps: string[] = [];
    const created: ConsumerConfig[] = [];
    const admin = { topicsReady: async () => void steps.push('topics ready') } as unknown as KafkaAdmin;
    const kafka = {
      consumer: (config: ConsumerConfig) => {
        steps.push(`consumer ${config.groupId}`);
        created.push(config);
        return {};
      },
    } as unknown as Kafka;
    const factory = new ConsumerFactory(kafka, admin, env);

    await factory.create('bulk');
    await factory.create('replies.abc', { maxWaitTimeInMs: 50 });

    expect(steps).toEqual([
      'topics ready',
      'consumer outlet-service.bulk',
      'topics ready',
      'consumer outlet-service.replies.abc',
    ]);
    expect(created[0]).toEqual({ groupId: 'outlet-service.bulk', ...consumerSettings });
    expect(created[1]).toMatchObject({ groupId: 'outlet-service.replies.abc', maxWaitTimeInMs: 50 });
    expect(factory.groupId('events')).toBe('outlet-service.events');
  });
});
