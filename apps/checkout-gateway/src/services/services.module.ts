import { Module } from '@nestjs/common';
import { ClientsModule, KafkaOptions, Transport } from '@nestjs/microservices';
import { kafkaBrokerList } from '@payments/platform-config';
import { Partitioners } from 'kafkajs';
import { Env } from '../config/env';
import { CARD_SERVICE, CardServiceClient } from './card-service.client';
import { OUTLET_SERVICE, OutletServiceClient } from './outlet-service.client';
import { WEBHOOK_SERVICE, WebhookServiceClient } from './webhook-service.client';

/** Each backing service gets its own Kafka client, and so its own reply consumer group. */
function clientFor(name: symbol, suffix: string) {
  return {
    name,
    inject: [Env],
    useFactory: (env: Env): KafkaOptions => ({
      transport: Transport.KAFKA,
      options: {
        client: { clientId: `${env.SERVICE_NAME}-${suffix}`, brokers: kafkaBrokerList(env) },
        consumer: {
          groupId: `${env.SERVICE_NAME}-${suffix}`,
          allowAutoTopicCreation: false,
          sessionTimeout: 15_000,
          heartbeatInterval: 3000,
          // Short fetch waits: replies arrive as soon as they exist either way, and shutdown is quick.
          maxWaitTimeInMs: 500,
        },
        producer: { allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner },
        run: { partitionsConsumedConcurrently: env.KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY },
      },
    }),
  };
}

@Module({
  imports: [ClientsModule.registerAsync([clientFor(OUTLET_SERVICE, 'outlets'), clientFor(WEBHOOK_SERVICE, 'webhooks'), clientFor(CARD_SERVICE, 'cards')])],
  providers: [OutletServiceClient, WebhookServiceClient, CardServiceClient],
  exports: [OutletServiceClient, WebhookServiceClient, CardServiceClient],
})
export class ServicesModule {}
