import { Body, Param, Query } from '@nestjs/common';
import {
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
  SetWebhookEndpointRequest,
  WebhookEndpointResponse,
} from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { WebhookServiceClient } from '../kafka-clients/webhook-service.client';

@PartnerController('webhooks', 'webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhookServiceClient) {}

  @Route.get('endpoint', 'Your webhook URL, its status and the Standard Webhooks signing secret')
  @Answers(WebhookEndpointResponse, 'Webhook endpoint retrieved', 503)
  getWebhookEndpoint(@CurrentBusiness() business: Business) {
    return this.webhooks.send({ type: 'getEndpoint', businessId: business.id });
  }

  @Route.put('endpoint', 'Set the URL events are delivered to (re-enables an endpoint disabled by 410)')
  @Answers(WebhookEndpointResponse, 'Webhook endpoint updated', 422, 503)
  setWebhookEndpoint(@CurrentBusiness() business: Business, @Body() request: SetWebhookEndpointRequest) {
    return this.webhooks.send({ type: 'setEndpoint', businessId: business.id, url: request.url });
  }

  @Route.post('test', 'Send a signed webhook.test event to your endpoint')
  @Answers(DeliveryResponse, 'Test event scheduled', 422, 503)
  sendTestWebhook(@CurrentBusiness() business: Business) {
    return this.webhooks.send({ type: 'sendTest', businessId: business.id });
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
