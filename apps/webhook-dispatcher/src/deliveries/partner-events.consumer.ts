import { Controller } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventEnvelope, PartnerEventV1, PartnerEventV1Payload, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';
import { DataSource } from 'typeorm';
import { EndpointsRepository } from '../endpoints/endpoints.repository';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryWorker } from './delivery-worker';

/**
 * Turns each partner event into deliveries (the business's webhook URL, and a checkout's
 * callback URL) before the Kafka offset is committed. Redelivered messages add nothing. An
 * event is never dropped: without an endpoint record yet it is parked until onboarding
 * arrives, and for an endpoint without a URL or disabled it is held until a URL is set.
 */
@Controller()
export class PartnerEventsConsumer {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
  ) {}

  @EventHandler(Topics.partnerEvents, 'bulk')
  async handle(envelope: EventEnvelope<PartnerEventV1Payload>): Promise<void> {
    if (envelope?.type !== PartnerEventV1 || !envelope.businessId) return;
    const businessId = envelope.businessId;
    const { event, eventData, callbackUrl } = envelope.payload;
    await this.dataSource.transaction(async (em) => {
      await this.endpoints.lockRouting(em, businessId);
      const endpoint = await this.endpoints.route(em, businessId);
      const common = { businessId, eventId: envelope.eventId, event, eventData };
      // Onboarding travels on another topic and may land a moment later: park the event until
      // it does, rather than blocking the partition for every other business.
      if (!endpoint) await this.deliveries.park(em, common);
      else {
        const sendable = endpoint.url !== null && endpoint.status === 'active';
        await this.deliveries.add(em, { ...common, target: 'business', url: endpoint.url, status: sendable ? 'pending' : 'held' });
      }
      if (callbackUrl) await this.deliveries.add(em, { ...common, target: 'callback', url: callbackUrl });
    });
    this.worker.nudge();
  }
}
