import { Injectable } from '@nestjs/common';
import { BusinessMode, WebhookEndpointResponse } from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';
import { assertWebhookUrlAllowed } from '@payments/platform-webhook-targets';
import { DataSource } from 'typeorm';

import { Env } from '../config/env';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { Endpoint, EndpointsRepository } from '../endpoints/endpoints.repository';

/** A business's webhook endpoint as the partner API reads and sets it. */
@Injectable()
export class EndpointSettings {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
    private readonly env: Env,
  ) {}

  async view(businessId: string): Promise<WebhookEndpointResponse> {
    return view(await this.endpoint(businessId));
  }

  /** Points the endpoint, and the deliveries still waiting for it, at `url`. */
  async setUrl(businessId: string, url: string): Promise<WebhookEndpointResponse> {
    const endpoint = await this.endpoint(businessId);
    await this.assertAllowed(url, endpoint.mode);
    await this.dataSource.transaction(async (em) => {
      await this.endpoints.lockRouting(em, businessId);
      await this.endpoints.setUrl(em, businessId, url);
      await this.deliveries.retarget(em, businessId, url);
    });
    this.worker.nudge();
    return this.view(businessId);
  }

  /** The business's endpoint; INVALID_TENANT before its onboarding reached this service. */
  async endpoint(businessId: string): Promise<Endpoint> {
    const endpoint = await this.endpoints.find(businessId);
    if (!endpoint) throw apiError('INVALID_TENANT', 'This business is not set up for webhooks yet; contact support');
    return endpoint;
  }

  /** The sender's rule, told now: every address of the host must be one a delivery may reach. */
  assertAllowed(url: string, mode: BusinessMode): Promise<void> {
    return assertWebhookUrlAllowed(url, {
      live: mode === 'live',
      allowPrivate: this.env.WEBHOOK_SANDBOX_ALLOW_PRIVATE,
      check: 'resolved',
    });
  }
}

/** What a partner sees of its endpoint: never the API keys it is signed with. */
function view({ url, signingSecret, status, disabledReason }: Endpoint): WebhookEndpointResponse {
  return { url, signingSecret, status, disabledReason };
}
