import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { Controller, Logger } from '@nestjs/common';
import { CommandReply, PartnerEvents, Topics, WebhookCommand, WebhookEndpointResponse } from '@payments/contracts';
import { apiError, commandReply } from '@payments/platform-envelope';
import { CommandHandler } from '@payments/platform-kafka';
import { DataSource } from 'typeorm';

import { Env } from '../config/env';
import { DeliveriesRepository, toResponse } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { Endpoint, EndpointsRepository } from '../endpoints/endpoints.repository';
import { hostOf, isAllowedAddress } from '../sending/target-guard';

/** The partner API's requests, forwarded by the gateway over Kafka request/reply. */
@Controller()
export class WebhookCommandsController {
  private readonly logger = new Logger(WebhookCommandsController.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
    private readonly env: Env,
  ) {}

  @CommandHandler(Topics.webhookCommands)
  handle(command: WebhookCommand): Promise<CommandReply> {
    return commandReply(this.logger, command?.type, () => this.dispatch(command));
  }

  private async dispatch(command: WebhookCommand): Promise<unknown> {
    switch (command.type) {
      case 'getEndpoint':
        return view(await this.endpoint(command.businessId));
      case 'setEndpoint': {
        const endpoint = await this.endpoint(command.businessId);
        await this.assertAllowed(command.url, endpoint.mode);
        await this.dataSource.transaction(async (em) => {
          await this.endpoints.lockRouting(em, command.businessId);
          await this.endpoints.setUrl(em, command.businessId, command.url);
          await this.deliveries.retarget(em, command.businessId, command.url);
        });
        this.worker.nudge();
        return view(await this.endpoint(command.businessId));
      }
      case 'listDeliveries':
        return this.deliveries.page(command.businessId, command.query);
      case 'getDelivery':
        return this.deliveries.detail(command.businessId, command.deliveryId);
      case 'replayDelivery': {
        const original = await this.deliveries.own(command.businessId, command.deliveryId);
        const endpoint = await this.endpoint(command.businessId);
        const url = original.target === 'callback' ? original.url : endpoint.url;
        if (!url) throw apiError('WEBHOOK_URL_NOT_SET', 'Set a webhook URL with PUT /webhooks/endpoint first');
        return this.enqueue(command.businessId, {
          eventId: original.event_id,
          event: original.event,
          eventData: original.event_data,
          target: 'replay',
          url,
        });
      }
      case 'sendTest': {
        const endpoint = await this.endpoint(command.businessId);
        if (!endpoint.url) throw apiError('WEBHOOK_URL_NOT_SET', 'Set a webhook URL with PUT /webhooks/endpoint first');
        const eventData = {
          message: 'This is a test event from your payments dashboard',
          businessId: command.businessId,
          createdAt: new Date().toISOString(),
        };
        return this.enqueue(command.businessId, {
          eventId: randomUUID(),
          event: PartnerEvents.webhookTest,
          eventData,
          target: 'test',
          url: endpoint.url,
        });
      }
    }
  }

  private async enqueue(
    businessId: string,
    delivery: {
      eventId: string;
      event: string;
      eventData: Record<string, unknown>;
      target: 'replay' | 'test';
      url: string;
    },
  ) {
    const id = await this.dataSource.transaction((em) => this.deliveries.add(em, { businessId, ...delivery }));
    this.worker.nudge();
    return toResponse(await this.deliveries.own(businessId, id));
  }

  private async endpoint(businessId: string): Promise<Endpoint> {
    const endpoint = await this.endpoints.find(businessId);
    if (!endpoint) throw apiError('INVALID_TENANT', 'This business is not set up for webhooks yet; contact support');
    return endpoint;
  }

  /**
   * A host whose every address may be reached (public ones; private ones only for sandbox
   * businesses where a developer allowed them), and https for live businesses. The sender
   * checks again at connect time.
   */
  private async assertAllowed(url: string, mode: 'test' | 'live'): Promise<void> {
    const parsed = new URL(url);
    if (mode === 'live' && parsed.protocol !== 'https:')
      throw apiError('WEBHOOK_URL_NOT_ALLOWED', 'Live webhook URLs must use https');
    const allowPrivate = mode === 'test' && this.env.WEBHOOK_SANDBOX_ALLOW_PRIVATE;
    const host = hostOf(parsed);
    const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
    if (addresses.length === 0) throw apiError('WEBHOOK_URL_NOT_ALLOWED', `${parsed.hostname} does not resolve`);
    if (!addresses.every((entry) => isAllowedAddress(entry.address, allowPrivate))) {
      throw apiError(
        'WEBHOOK_URL_NOT_ALLOWED',
        `${parsed.hostname} resolves to a private, loopback, link-local or metadata address`,
      );
    }
  }
}

/** What a partner sees of its endpoint: never the API keys it is signed with. */
function view({ url, signingSecret, status, disabledReason }: Endpoint): WebhookEndpointResponse {
  return { url, signingSecret, status, disabledReason };
}
