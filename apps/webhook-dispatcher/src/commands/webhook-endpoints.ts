import { Injectable } from '@nestjs/common';
import {
  CreateWebhookEndpointRequest,
  defaultWebhookEndpointId,
  maxWebhookEndpoints,
  UpdateWebhookEndpointRequest,
  WebhookEndpointDetailResponse,
  WebhookEndpointListResponse,
} from '@payments/contracts';
import { apiError, ValidationFailedError } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';

import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { Endpoint, EndpointsRepository } from '../endpoints/endpoints.repository';
import { PartnerEndpoint, PartnerEndpointsRepository } from '../endpoints/partner-endpoints.repository';
import { addedEndpointTakesDeliveries } from '../endpoints/takes-deliveries';
import { EndpointSettings } from './endpoint-settings';

/**
 * `/webhooks/endpoints`: the default endpoint (PUT /webhooks/endpoint sets its URL; it receives
 * every event) and up to `maxWebhookEndpoints` more, each with its URL, event filter, on/off
 * switch and Standard Webhooks secret. Changes that decide where events go are made under the
 * business's routing lock, as events are routed under it.
 */
@Injectable()
export class WebhookEndpoints {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointsRepository,
    private readonly added: PartnerEndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
    private readonly settings: EndpointSettings,
  ) {}

  async list(businessId: string): Promise<WebhookEndpointListResponse> {
    const defaultEndpoint = await this.settings.endpoint(businessId);
    return { items: [defaultView(defaultEndpoint), ...(await this.added.list(businessId)).map(addedView)] };
  }

  async describe(businessId: string, endpointId: string): Promise<WebhookEndpointDetailResponse> {
    if (endpointId === defaultWebhookEndpointId) return defaultView(await this.settings.endpoint(businessId));
    return addedView(await this.own(businessId, endpointId));
  }

  async create(businessId: string, request: CreateWebhookEndpointRequest): Promise<WebhookEndpointDetailResponse> {
    const business = await this.settings.endpoint(businessId);
    await this.settings.assertAllowed(request.url, business.mode);
    const id = await this.dataSource.transaction(async (em) => {
      await this.endpoints.lockRouting(em, businessId);
      if ((await this.added.count(em, businessId)) >= maxWebhookEndpoints) {
        throw apiError(
          'WEBHOOK_ENDPOINT_LIMIT',
          `A business can have ${maxWebhookEndpoints} endpoints besides its default one; delete one first`,
        );
      }
      return this.added.create(em, {
        businessId,
        url: request.url,
        events: request.events ?? ['*'],
        description: request.description ?? null,
        enabled: request.enabled ?? true,
      });
    });
    return this.describe(businessId, id);
  }

  /** The default endpoint's URL only: it receives every event, and PUT /webhooks/endpoint is its other name. */
  async update(
    businessId: string,
    endpointId: string,
    changes: UpdateWebhookEndpointRequest,
  ): Promise<WebhookEndpointDetailResponse> {
    if (endpointId === defaultWebhookEndpointId) return this.updateDefault(businessId, changes);
    const endpoint = await this.own(businessId, endpointId);
    if (changes.url !== undefined) {
      await this.settings.assertAllowed(changes.url, (await this.settings.endpoint(businessId)).mode);
    }
    await this.dataSource.transaction(async (em) => {
      await this.endpoints.lockRouting(em, businessId);
      await this.added.update(em, endpointId, changes);
      const updated = (await this.added.find(businessId, endpointId, em)) ?? endpoint;
      await this.deliveries.retargetEndpoint(em, endpointId, updated.url, addedEndpointTakesDeliveries(updated));
    });
    this.worker.nudge();
    return this.describe(businessId, endpointId);
  }

  /** Deletes an added endpoint; what still waited for it is marked failed. The default one stays. */
  async delete(businessId: string, endpointId: string): Promise<WebhookEndpointDetailResponse> {
    if (endpointId === defaultWebhookEndpointId) {
      throw new ValidationFailedError([
        {
          field: 'endpointId',
          messages: ['the default endpoint cannot be deleted; point it elsewhere with PUT /webhooks/endpoint'],
        },
      ]);
    }
    const endpoint = await this.own(businessId, endpointId);
    await this.dataSource.transaction(async (em) => {
      await this.endpoints.lockRouting(em, businessId);
      await this.deliveries.abandonEndpoint(em, endpointId);
      await this.added.delete(em, endpointId);
    });
    return addedView(endpoint);
  }

  /** The business's added endpoint; another business's id is simply not found. */
  async own(businessId: string, endpointId: string): Promise<PartnerEndpoint> {
    const endpoint = await this.added.find(businessId, endpointId);
    if (!endpoint) throw apiError('WEBHOOK_ENDPOINT_NOT_FOUND', `Webhook endpoint ${endpointId} not found`);
    return endpoint;
  }

  private async updateDefault(
    businessId: string,
    changes: UpdateWebhookEndpointRequest,
  ): Promise<WebhookEndpointDetailResponse> {
    const fixed = (['events', 'description', 'enabled'] as const).filter((field) => changes[field] !== undefined);
    if (fixed.length > 0) {
      throw new ValidationFailedError(
        fixed.map((field) => ({
          field,
          messages: [
            `the default endpoint receives every event and only its url changes; add an endpoint to set ${field}`,
          ],
        })),
      );
    }
    if (changes.url !== undefined) await this.settings.setUrl(businessId, changes.url);
    return this.describe(businessId, defaultWebhookEndpointId);
  }
}

export function defaultView(endpoint: Endpoint): WebhookEndpointDetailResponse {
  return {
    endpointId: defaultWebhookEndpointId,
    url: endpoint.url,
    events: ['*'],
    description: null,
    enabled: true,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason,
    signingSecret: endpoint.signingSecret,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

export function addedView(endpoint: PartnerEndpoint): WebhookEndpointDetailResponse {
  return {
    endpointId: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason,
    signingSecret: endpoint.signingSecret,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
  };
}
