import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';
import { Sealer } from '@payments/platform-crypto';

import { BusinessEventsConsumer } from './businesses/business-events.consumer';
import { WebhookCommandsController } from './commands/webhook-commands.controller';
import { Env } from './config/env';
import { database } from './database/data-source';
import { AttemptRecorder } from './deliveries/attempt-recorder';
import { AttemptsRepository } from './deliveries/attempts.repository';
import { DeliveriesRepository } from './deliveries/deliveries.repository';
import { DeliveryWorker } from './deliveries/delivery-worker';
import { PartnerEventsConsumer } from './deliveries/partner-events.consumer';
import { EndpointsRepository } from './endpoints/endpoints.repository';
import { WebhookSender } from './sending/webhook-sender';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(env, database, { outboxRelay: false })],
      controllers: [BusinessEventsConsumer, PartnerEventsConsumer, WebhookCommandsController],
      providers: [
        { provide: Sealer, useValue: new Sealer(env.DATA_ENCRYPTION_KEY) },
        EndpointsRepository,
        DeliveriesRepository,
        AttemptRecorder,
        AttemptsRepository,
        DeliveryWorker,
        WebhookSender,
      ],
    };
  }
}
