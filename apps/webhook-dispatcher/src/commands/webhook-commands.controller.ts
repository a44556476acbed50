import { Controller } from '@nestjs/common';
import { Topics, WebhookCommand } from '@payments/contracts';
import { CommandHandler } from '@payments/platform-kafka';

import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { EndpointSettings } from './endpoint-settings';
import { ManualDeliveries } from './manual-deliveries';

/** The partner API's requests, forwarded by the gateway over Kafka request/reply. */
@Controller()
export class WebhookCommandsController {
  constructor(
    private readonly settings: EndpointSettings,
    private readonly manual: ManualDeliveries,
    private readonly deliveries: DeliveriesRepository,
  ) {}

  @CommandHandler(Topics.webhookCommands)
  handle(command: WebhookCommand): Promise<unknown> {
    switch (command.type) {
      case 'getEndpoint':
        return this.settings.view(command.businessId);
      case 'setEndpoint':
        return this.settings.setUrl(command.businessId, command.url);
      case 'listDeliveries':
        return this.deliveries.page(command.businessId, command.query);
      case 'getDelivery':
        return this.deliveries.detail(command.businessId, command.deliveryId);
      case 'replayDelivery':
        return this.manual.replay(command.businessId, command.deliveryId);
      case 'sendTest':
        return this.manual.sendTest(command.businessId);
    }
  }
}
