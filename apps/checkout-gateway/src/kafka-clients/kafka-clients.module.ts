import { Module } from '@nestjs/common';
import { CommandClient } from '@payments/platform-kafka';

import { CardServiceClient } from './card-service.client';
import { OutletServiceClient } from './outlet-service.client';
import { WebhookServiceClient } from './webhook-service.client';

/** The backing services, over one request/reply client: one reply consumer for this instance, whatever it asks. */
@Module({
  providers: [CommandClient, OutletServiceClient, WebhookServiceClient, CardServiceClient],
  exports: [OutletServiceClient, WebhookServiceClient, CardServiceClient],
})
export class KafkaClientsModule {}
