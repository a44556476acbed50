import { Controller, Logger } from '@nestjs/common';
import { CommandReply, Topics, WebhookCommand } from '@payments/contracts';
import { commandReply } from '@payments/platform-envelope';
import { CommandHandler } from '@payments/platform-kafka';

import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { EndpointSettings } from './endpoint-settings';
import { ManualDeliveries } from './manual-deliveries';

/** The partner API's requests, forwarded by the gateway over Kafka request/reply. */
@Controller()
export class WebhookCommandsController {
  private readonly logger = new Logger(WebhookCommandsController.name);

  constructor(
    private readonly settings: EndpointSettings,
    private readonly manual: ManualDeliveries,
    private readonly deliveries: DeliveriesRepository,
  ) {}

  @CommandHandler(Topics.webhookCommands)
  handle(command: WebhookCommand): Promise<CommandReply> {
    return commandReply(this.logger, command?.type, () => this.dispatch(command));
  }

  private dispatch(command: WebhookCommand): Promise<unknown> {
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
