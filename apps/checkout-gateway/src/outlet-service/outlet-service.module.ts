import { Module } from '@nestjs/common';
import { ClientsModule, Transport } from '@nestjs/microservices';
import { kafkaBrokerList } from '@payments/platform-config';
import { Partitioners } from 'kafkajs';
import { Env } from '../config/env';
import { OUTLET_SERVICE, OutletServiceClient } from './outlet-service.client';

@Module({
  imports: [
    ClientsModule.registerAsync([
      {
        name: OUTLET_SERVICE,
        inject: [Env],
        useFactory: (env: Env) => ({
          transport: Transport.KAFKA,
          options: {
            client: { clientId: `${env.SERVICE_NAME}-outlets`, brokers: kafkaBrokerList(env) },
            consumer: { groupId: `${env.SERVICE_NAME}-outlets`, allowAutoTopicCreation: false },
            producer: { allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner },
            run: { partitionsConsumedConcurrently: env.KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY },
          },
        }),
      },
    ]),
  ],
  providers: [OutletServiceClient],
  exports: [OutletServiceClient],
})
export class OutletServiceModule {}
