import { Module } from '@nestjs/common';

import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { EndpointSettings } from './endpoint-settings';
import { ManualDeliveries } from './manual-deliveries';
import { SecretRolls } from './secret-rolls';
import { WebhookCommandsController } from './webhook-commands.controller';
import { WebhookEndpoints } from './webhook-endpoints';

/** The gateway's requests: endpoints, their settings and secret rolls, deliveries, replays and test events. */
@Module({
  imports: [EndpointsModule, DeliveriesModule],
  providers: [EndpointSettings, ManualDeliveries, SecretRolls, WebhookEndpoints],
  controllers: [WebhookCommandsController],
})
export class CommandsModule {}
