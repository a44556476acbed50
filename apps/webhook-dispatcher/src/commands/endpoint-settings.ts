import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { Injectable } from '@nestjs/common';
import { BusinessMode, WebhookEndpointResponse } from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';

import { Env } from '../config/env';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { Endpoint, EndpointsRepository } from '../endpoints/endpoints.repository';
import { hostOf, isAllowedAddress } from '../sending/target-guard';

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

  /**
   * A host whose every address may be reached (public ones; private ones only for sandbox
   * businesses where a developer allowed them), and https for live businesses. The sender
   * checks again at connect time.
   */
  private async assertAllowed(url: string, mode: BusinessMode): Promise<void> {
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
