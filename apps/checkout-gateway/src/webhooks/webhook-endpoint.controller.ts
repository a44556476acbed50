import { Body } from '@nestjs/common';
import { DeliveryResponse, SetWebhookEndpointRequest, WebhookEndpointResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { WebhookServiceClient } from '../kafka-clients/webhook-service.client';

@PartnerController('webhooks', 'webhooks')
export class WebhookEndpointController {
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
}
