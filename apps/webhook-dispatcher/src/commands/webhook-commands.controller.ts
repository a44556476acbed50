import { Controller } from '@nestjs/common';
import { CommandHandlers, Topics, WebhookCommand, WebhookCommandResults } from '@payments/contracts';
import { CommandHandler, dispatchCommand } from '@payments/platform-kafka';

import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { EndpointSettings } from './endpoint-settings';
import { ManualDeliveries } from './manual-deliveries';
import { SecretRolls } from './secret-rolls';
import { WebhookEndpoints } from './webhook-endpoints';

/** The partner API's requests, forwarded by the gateway over Kafka request/reply. */
@Controller()
export class WebhookCommandsController {
  constructor(
    private readonly settings: EndpointSettings,
    private readonly manual: ManualDeliveries,
    private readonly deliveries: DeliveriesRepository,
    private readonly endpoints: WebhookEndpoints,
    private readonly secretRolls: SecretRolls,
  ) {}

  /** A handler for each command type, held to the answer its contract promises. */
  private readonly handlers: CommandHandlers<WebhookCommand, WebhookCommandResults> = {
    getEndpoint: (command) => this.settings.view(command.businessId),
    setEndpoint: (command) => this.settings.setUrl(command.businessId, command.url),
    listDeliveries: (command) => this.deliveries.page(command.businessId, command.query),
    getDelivery: (command) => this.deliveries.detail(command.businessId, command.deliveryId),
    replayDelivery: (command) => this.manual.replay(command.businessId, command.deliveryId),
    sendTest: (command) => this.manual.sendTest(command.businessId, command.endpointId),
    listEndpoints: (command) => this.endpoints.list(command.businessId),
    describeEndpoint: (command) => this.endpoints.describe(command.businessId, command.endpointId),
    createEndpoint: (command) => this.endpoints.create(command.businessId, command.endpoint),
    updateEndpoint: (command) => this.endpoints.update(command.businessId, command.endpointId, command.changes),
    deleteEndpoint: (command) => this.endpoints.delete(command.businessId, command.endpointId),
    rollEndpointSecret: (command) =>
      this.secretRolls.roll(command.businessId, command.endpointId, command.gracePeriodHours, command.idempotencyKey),
  };

  @CommandHandler(Topics.webhookCommands)
  handle(command: WebhookCommand): Promise<unknown> {
    return dispatchCommand(this.handlers, command);
  }
}
