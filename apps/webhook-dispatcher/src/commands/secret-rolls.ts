import { Injectable } from '@nestjs/common';
import { defaultWebhookEndpointId, WebhookEndpointDetailResponse } from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';
import { DataSource, EntityManager } from 'typeorm';

import { EndpointsRepository } from '../endpoints/endpoints.repository';
import { PartnerEndpointsRepository } from '../endpoints/partner-endpoints.repository';
import { SecretRollsRepository } from '../endpoints/secret-rolls.repository';
import { EndpointSettings } from './endpoint-settings';
import { addedView, defaultView, WebhookEndpoints } from './webhook-endpoints';

/**
 * `POST /webhooks/endpoints/{endpointId}/roll-secret`: a new signing secret, the ones before it
 * signing beside it until their grace ends. A roll repeated with its Idempotency-Key answers
 * the first roll's secret; one repeated without a key rolls again, but ends no earlier grace.
 */
@Injectable()
export class SecretRolls {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointsRepository,
    private readonly added: PartnerEndpointsRepository,
    private readonly keys: SecretRollsRepository,
    private readonly settings: EndpointSettings,
    private readonly webhookEndpoints: WebhookEndpoints,
  ) {}

  async roll(
    businessId: string,
    endpointId: string,
    graceHours: number,
    idempotencyKey?: string,
  ): Promise<WebhookEndpointDetailResponse> {
    // An unknown endpoint answers 404 before a key is taken, so the key stays free for a good request.
    if (endpointId === defaultWebhookEndpointId) await this.settings.endpoint(businessId);
    else await this.webhookEndpoints.own(businessId, endpointId);
    return this.dataSource.transaction(async (em) => {
      if (!idempotencyKey) return this.rollNow(em, businessId, endpointId, graceHours);
      const roll = { endpointId, gracePeriodHours: graceHours };
      const earlier = await this.keys.claim(em, businessId, idempotencyKey, roll);
      if (earlier) {
        if (earlier.endpointId !== endpointId || earlier.gracePeriodHours !== graceHours || !earlier.response) {
          throw apiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request');
        }
        return earlier.response;
      }
      const response = await this.rollNow(em, businessId, endpointId, graceHours);
      await this.keys.saveResponse(em, businessId, idempotencyKey, response);
      return response;
    });
  }

  /** Rolls the secret and answers the endpoint as the roll left it, read in the roll's transaction. */
  private async rollNow(
    em: EntityManager,
    businessId: string,
    endpointId: string,
    graceHours: number,
  ): Promise<WebhookEndpointDetailResponse> {
    if (endpointId === defaultWebhookEndpointId) {
      await this.endpoints.rollSecret(em, businessId, graceHours);
      return defaultView((await this.endpoints.find(businessId, em))!);
    }
    await this.added.rollSecret(em, endpointId, graceHours);
    const endpoint = await this.added.find(businessId, endpointId, em);
    if (!endpoint) throw apiError('WEBHOOK_ENDPOINT_NOT_FOUND', `Webhook endpoint ${endpointId} not found`);
    return addedView(endpoint);
  }
}
