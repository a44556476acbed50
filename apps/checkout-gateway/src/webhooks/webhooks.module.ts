import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { WebhooksController } from './webhooks.controller';

/** The business's webhook endpoint and deliveries, kept by webhook-dispatcher. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule],
  controllers: [WebhooksController],
})
export class WebhooksModule {}
