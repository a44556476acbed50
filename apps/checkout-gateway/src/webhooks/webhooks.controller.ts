import { Body, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
  SetWebhookEndpointRequest,
  WebhookEndpointResponse,
} from '@payments/contracts';
import { ApiEnvelopeErrors, ApiEnvelopeOk, ApiRequestBody, SuccessMessage } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { WebhookServiceClient } from '../kafka-clients/webhook-service.client';

@PartnerController('webhooks', 'webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhookServiceClient) {}

  @Get('endpoint')
  @ApiOperation({ summary: 'Your webhook URL, its status and the Standard Webhooks signing secret' })
  @ApiEnvelopeOk(WebhookEndpointResponse)
  @SuccessMessage('Webhook endpoint retrieved')
  endpoint(@CurrentBusiness() business: Business): Promise<WebhookEndpointResponse> {
    return this.webhooks.send({ type: 'getEndpoint', businessId: business.id });
  }

  @Put('endpoint')
  @ApiOperation({ summary: 'Set the URL events are delivered to (re-enables an endpoint disabled by 410)' })
  @ApiRequestBody(SetWebhookEndpointRequest)
  @ApiEnvelopeOk(WebhookEndpointResponse)
  @ApiEnvelopeErrors(422)
  @SuccessMessage('Webhook endpoint updated')
  setEndpoint(
    @CurrentBusiness() business: Business,
    @Body() request: SetWebhookEndpointRequest,
  ): Promise<WebhookEndpointResponse> {
    return this.webhooks.send({ type: 'setEndpoint', businessId: business.id, url: request.url });
  }

  @Get('deliveries')
  @ApiOperation({ summary: 'Deliveries, newest first; filter by status, event and creation time' })
  @ApiEnvelopeOk(DeliveryPageResponse)
  @ApiEnvelopeErrors(422)
  @SuccessMessage('Deliveries retrieved')
  deliveries(
    @CurrentBusiness() business: Business,
    @Query() query: ListDeliveriesQuery,
  ): Promise<DeliveryPageResponse> {
    return this.webhooks.send({ type: 'listDeliveries', businessId: business.id, query });
  }

  @Get('deliveries/:deliveryId')
  @ApiOperation({ summary: 'One delivery with every attempt: time, status code, latency, first 1 KB of the answer' })
  @ApiEnvelopeOk(DeliveryDetailResponse)
  @ApiEnvelopeErrors(404)
  @SuccessMessage('Delivery retrieved')
  delivery(
    @CurrentBusiness() business: Business,
    @Param('deliveryId') deliveryId: string,
  ): Promise<DeliveryDetailResponse> {
    return this.webhooks.send({ type: 'getDelivery', businessId: business.id, deliveryId });
  }

  @Post('deliveries/:deliveryId/replay')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a delivery again, as a new delivery with the same event id' })
  @ApiEnvelopeOk(DeliveryResponse)
  @ApiEnvelopeErrors(404, 422)
  @SuccessMessage('Replay scheduled')
  replay(@CurrentBusiness() business: Business, @Param('deliveryId') deliveryId: string): Promise<DeliveryResponse> {
    return this.webhooks.send({ type: 'replayDelivery', businessId: business.id, deliveryId });
  }

  @Post('test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a signed webhook.test event to your endpoint' })
  @ApiEnvelopeOk(DeliveryResponse)
  @ApiEnvelopeErrors(422)
  @SuccessMessage('Test event scheduled')
  test(@CurrentBusiness() business: Business): Promise<DeliveryResponse> {
    return this.webhooks.send({ type: 'sendTest', businessId: business.id });
  }
}
