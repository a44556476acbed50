import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { defaultWebhookEndpointId, DeliveryResponse, PartnerEvents } from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';

import { DeliveriesRepository, toResponse } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { EndpointSettings } from './endpoint-settings';
import { WebhookEndpoints } from './webhook-endpoints';

interface ManualDelivery {
  eventId: string;
  event: string;
  eventData: Record<string, unknown>;
  target: 'replay' | 'test';
  url: string;
  /** An added endpoint; absent for the default one and a callback. */
  endpointId?: string | null;
}

/** Deliveries a partner asks for: a replay of an earlier one, or a signed test event. */
@Injectable()
export class ManualDeliveries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
    private readonly settings: EndpointSettings,
    private readonly endpoints: WebhookEndpoints,
  ) {}

  /** A new delivery of the same event, to the callback it went to or its endpoint as it is now. */
  async replay(businessId: string, deliveryId: string): Promise<DeliveryResponse> {
    const original = await this.deliveries.own(businessId, deliveryId);
    const url =
      original.target === 'callback' ? original.url : await this.urlOf(businessId, original.endpoint_id ?? undefined);
    if (!url) throw urlNotSet();
    return this.enqueue(businessId, {
      eventId: original.event_id,
      event: original.event,
      eventData: original.event_data,
      target: 'replay',
      url,
      endpointId: original.endpoint_id,
    });
  }

  /** A signed webhook.test event to one endpoint: the default one unless `endpointId` names another. */
  async sendTest(businessId: string, endpointId?: string): Promise<DeliveryResponse> {
    const added = endpointId && endpointId !== defaultWebhookEndpointId ? endpointId : undefined;
    const url = await this.urlOf(businessId, added);
    if (!url) throw urlNotSet();
    const eventData = {
      message: 'This is a test event from your payments dashboard',
      businessId,
      createdAt: new Date().toISOString(),
    };
    return this.enqueue(businessId, {
      eventId: randomUUID(),
      event: PartnerEvents.webhookTest,
      eventData,
      target: 'test',
      url,
      endpointId: added,
    });
  }

  /** Where an endpoint is now: an added one by id, or the default one. */
  private async urlOf(businessId: string, addedEndpointId: string | undefined): Promise<string | null> {
    if (addedEndpointId) return (await this.endpoints.own(businessId, addedEndpointId)).url;
    return (await this.settings.endpoint(businessId)).url;
  }

  private async enqueue(businessId: string, delivery: ManualDelivery): Promise<DeliveryResponse> {
    const id = await this.dataSource.transaction((em) => this.deliveries.add(em, { businessId, ...delivery }));
    this.worker.nudge();
    return toResponse(await this.deliveries.own(businessId, id));
  }
}

const urlNotSet = () => apiError('WEBHOOK_URL_NOT_SET', 'Set a webhook URL with PUT /webhooks/endpoint first');
