import { Body, Logger, Param, Query } from '@nestjs/common';
import {
  CreateWebhookEndpointRequest,
  defaultWebhookEndpointId,
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
  RollWebhookSecretRequest,
  SendTestWebhookRequest,
  SetWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookEndpointDetailResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
} from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { BusinessesService } from '../businesses/businesses.service';
import { AcceptsIdempotencyKey, IdempotencyKey } from '../common/idempotency-key';
import { WebhookServiceClient } from '../kafka-clients/webhook-service.client';

@PartnerController('webhooks', 'webhooks')
export class WebhooksController {
  private readonly logger = new Logger(WebhooksController.name);

  constructor(
    private readonly webhooks: WebhookServiceClient,
    private readonly businesses: BusinessesService,
  ) {}

  /**
   * webhook-dispatcher keeps the endpoints; the answer to a change of the default one's URL tells
   * the gateway that URL, for GET /business. Only changes are noted: a read answered before a
   * change but noted after it would put the old URL back. A change whose answer was lost is
   * noted by its retry.
   */
  private async noted<T>(
    business: Business,
    answer: Promise<T>,
    defaultEndpoint: (answer: T) => { url: string | null } | undefined = (endpoint) =>
      endpoint as { url: string | null },
  ): Promise<T> {
    const answered = await answer;
    const endpoint = defaultEndpoint(answered);
    if (!endpoint) return answered;
    // Best effort: the change is made, and a database that cannot note it must not answer it as failed.
    await this.businesses
      .noteDefaultWebhookUrl(business.id, endpoint.url)
      .catch((error: unknown) => this.logger.warn({ err: error, businessId: business.id }, 'webhook URL not noted'));
    return answered;
  }

  @Route.get('endpoint', 'Your webhook URL, its status and the Standard Webhooks signing secret')
  @Answers(WebhookEndpointResponse, 'Webhook endpoint retrieved', 503)
  getWebhookEndpoint(@CurrentBusiness() business: Business) {
    return this.webhooks.send({ type: 'getEndpoint', businessId: business.id });
  }

  @Route.put('endpoint', 'Set the URL events are delivered to (re-enables an endpoint disabled by 410)')
  @Answers(WebhookEndpointResponse, 'Webhook endpoint updated', 422, 503)
  setWebhookEndpoint(@CurrentBusiness() business: Business, @Body() request: SetWebhookEndpointRequest) {
    return this.noted(business, this.webhooks.send({ type: 'setEndpoint', businessId: business.id, url: request.url }));
  }

  @Route.get('endpoints', 'Every endpoint: the default one first, then those you added')
  @Answers(WebhookEndpointListResponse, 'Webhook endpoints retrieved', 503)
  listWebhookEndpoints(@CurrentBusiness() business: Business) {
    return this.webhooks.send({ type: 'listEndpoints', businessId: business.id });
  }

  @Route.post('endpoints', 'Add an endpoint with its own URL, event filter and signing secret (10 at most)')
  @Answers(WebhookEndpointDetailResponse, 'Webhook endpoint created', 422, 503)
  createWebhookEndpoint(@CurrentBusiness() business: Business, @Body() endpoint: CreateWebhookEndpointRequest) {
    return this.webhooks.send({ type: 'createEndpoint', businessId: business.id, endpoint });
  }

  @Route.get('endpoints/:endpointId', 'One endpoint, with its signing secret')
  @Answers(WebhookEndpointDetailResponse, 'Webhook endpoint retrieved', 404, 503)
  getWebhookEndpointById(@CurrentBusiness() business: Business, @Param('endpointId') endpointId: string) {
    return this.webhooks.send({ type: 'describeEndpoint', businessId: business.id, endpointId });
  }

  @Route.patch('endpoints/:endpointId', 'Change an endpoint: its URL, events, description, or enable or disable it')
  @Answers(WebhookEndpointDetailResponse, 'Webhook endpoint updated', 404, 422, 503)
  updateWebhookEndpoint(
    @CurrentBusiness() business: Business,
    @Param('endpointId') endpointId: string,
    @Body() changes: UpdateWebhookEndpointRequest,
  ) {
    const updated = this.webhooks.send({ type: 'updateEndpoint', businessId: business.id, endpointId, changes });
    return this.noted(business, updated, ifDefault);
  }

  @Route.delete('endpoints/:endpointId', 'Delete an endpoint you added; what still waited for it is not sent')
  @Answers(WebhookEndpointDetailResponse, 'Webhook endpoint deleted', 404, 422, 503)
  deleteWebhookEndpoint(@CurrentBusiness() business: Business, @Param('endpointId') endpointId: string) {
    return this.webhooks.send({ type: 'deleteEndpoint', businessId: business.id, endpointId });
  }

  @Route.post(
    'endpoints/:endpointId/roll-secret',
    'A new signing secret; the previous one keeps signing beside it for the grace period',
  )
  @AcceptsIdempotencyKey()
  @Answers(WebhookEndpointDetailResponse, 'Signing secret rolled', 404, 422, 503)
  rollWebhookSecret(
    @CurrentBusiness() business: Business,
    @Param('endpointId') endpointId: string,
    @Body() request: RollWebhookSecretRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ) {
    // The key is kept by webhook-dispatcher, in the roll's own transaction: a key kept here would
    // be lost with a 503 whose roll completed, and the answer it would keep holds the secret.
    return this.webhooks.send({
      type: 'rollEndpointSecret',
      businessId: business.id,
      endpointId,
      gracePeriodHours: request.gracePeriodHours ?? 24,
      idempotencyKey,
    });
  }

  @Route.post('test', 'Send a signed webhook.test event to an endpoint (the default one unless named)')
  @Answers(DeliveryResponse, 'Test event scheduled', 404, 422, 503)
  sendTestWebhook(@CurrentBusiness() business: Business, @Body() request: SendTestWebhookRequest) {
    return this.webhooks.send({ type: 'sendTest', businessId: business.id, endpointId: request.endpointId });
  }

  @Route.get('deliveries', 'Deliveries, newest first; filter by status, event and creation time')
  @Answers(DeliveryPageResponse, 'Deliveries retrieved', 422, 503)
  listDeliveries(@CurrentBusiness() business: Business, @Query() query: ListDeliveriesQuery) {
    return this.webhooks.send({ type: 'listDeliveries', businessId: business.id, query });
  }

  @Route.get(
    'deliveries/:deliveryId',
    'One delivery with every attempt: time, status code, latency, first 1 KB of the answer',
  )
  @Answers(DeliveryDetailResponse, 'Delivery retrieved', 404, 503)
  getDelivery(@CurrentBusiness() business: Business, @Param('deliveryId') deliveryId: string) {
    return this.webhooks.send({ type: 'getDelivery', businessId: business.id, deliveryId });
  }

  @Route.post('deliveries/:deliveryId/replay', 'Send a delivery again, as a new delivery with the same event id')
  @Answers(DeliveryResponse, 'Replay scheduled', 404, 422, 503)
  replayDelivery(@CurrentBusiness() business: Business, @Param('deliveryId') deliveryId: string) {
    return this.webhooks.send({ type: 'replayDelivery', businessId: business.id, deliveryId });
  }
}

const ifDefault = (endpoint: WebhookEndpointDetailResponse) =>
  endpoint.endpointId === defaultWebhookEndpointId ? endpoint : undefined;
