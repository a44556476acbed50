import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookEndpointController } from './webhook-endpoint.controller';

/** The business's webhook endpoint and deliveries, kept by webhook-dispatcher. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule],
  controllers: [WebhookEndpointController, WebhookDeliveriesController],
})
export class WebhooksModule {}
