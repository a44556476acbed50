import { Param, Query } from '@nestjs/common';
import {
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
} from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { WebhookServiceClient } from '../kafka-clients/webhook-service.client';

@PartnerController('webhooks/deliveries', 'webhooks')
export class WebhookDeliveriesController {
  constructor(private readonly webhooks: WebhookServiceClient) {}

  @Route.get('', 'Deliveries, newest first; filter by status, event and creation time')
  @Answers(DeliveryPageResponse, 'Deliveries retrieved', 422, 503)
  listDeliveries(@CurrentBusiness() business: Business, @Query() query: ListDeliveriesQuery) {
    return this.webhooks.send({ type: 'listDeliveries', businessId: business.id, query });
  }

  @Route.get(':deliveryId', 'One delivery with every attempt: time, status code, latency, first 1 KB of the answer')
  @Answers(DeliveryDetailResponse, 'Delivery retrieved', 404, 503)
  getDelivery(@CurrentBusiness() business: Business, @Param('deliveryId') deliveryId: string) {
    return this.webhooks.send({ type: 'getDelivery', businessId: business.id, deliveryId });
  }

  @Route.post(':deliveryId/replay', 'Send a delivery again, as a new delivery with the same event id')
  @Answers(DeliveryResponse, 'Replay scheduled', 404, 422, 503)
  replayDelivery(@CurrentBusiness() business: Business, @Param('deliveryId') deliveryId: string) {
    return this.webhooks.send({ type: 'replayDelivery', businessId: business.id, deliveryId });
  }
}
