import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { kafkaBrokerList, PlatformEnv } from '@payments/platform-config';

import { CommandReplies } from './commands/command-replies';
import { BulkYield } from './consumers/bulk-yield';
import { ConsumerFactory } from './consumers/consumer-factory';
import { ConsumerMetrics } from './consumers/consumer-metrics';
import { KafkaConsumers } from './consumers/kafka-consumers';
import { KafkaAdmin } from './kafka-admin';
import { createKafkaClient, KAFKA_CLIENT, kafkaSecurity } from './kafka-client';
import { KafkaProducer } from './producer';

/** The app's Kafka: one client, its admin connection, one batching producer, its consumer factory and the consumers of its handlers. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    {
      provide: KAFKA_CLIENT,
      inject: [PlatformEnv],
      useFactory: (env: PlatformEnv) =>
        createKafkaClient({
          brokers: kafkaBrokerList(env),
          clientId: env.KAFKA_CLIENT_ID ?? env.SERVICE_NAME,
          security: kafkaSecurity(env),
        }),
    },
    KafkaAdmin,
    KafkaProducer,
    ConsumerMetrics,
    BulkYield,
    ConsumerFactory,
    KafkaConsumers,
    CommandReplies,
  ],
  exports: [KAFKA_CLIENT, KafkaAdmin, KafkaProducer, ConsumerFactory, KafkaConsumers, BulkYield, CommandReplies],
})
export class KafkaModule {}
