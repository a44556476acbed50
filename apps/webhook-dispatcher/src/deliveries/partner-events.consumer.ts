import { Controller } from '@nestjs/common';
import { EventEnvelope, PartnerEventV1, PartnerEventV1Payload, Topics } from '@payments/contracts';
import { EventBatchHandler, MessageContext } from '@payments/platform-kafka';
import { carriedTraceContext } from '@payments/platform-tracing';
import { DataSource } from 'typeorm';

import { EndpointsRepository } from '../endpoints/endpoints.repository';
import { PartnerEndpointsRepository, subscribes } from '../endpoints/partner-endpoints.repository';
import { addedEndpointTakesDeliveries, defaultEndpointTakesDeliveries } from '../endpoints/takes-deliveries';
import { DeliveriesRepository, NewDelivery } from './deliveries.repository';
import { DeliveryWorker } from './delivery-worker';

/**
 * Turns partner events into deliveries (the business's default endpoint, each endpoint it added
 * whose filter takes the event, and a checkout's callback URL) before the Kafka offsets are
 * committed, a partition's batch in one transaction.
 * Redelivered messages add nothing. An event is never dropped: without an endpoint record yet
 * it is parked until onboarding arrives, and for an endpoint without a URL or disabled it is
 * held until a URL is set.
 */
@Controller()
export class PartnerEventsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointsRepository,
    private readonly partnerEndpoints: PartnerEndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
  ) {}

  async handle(envelope: EventEnvelope<PartnerEventV1Payload>): Promise<void> {
    await this.handleBatch([envelope]);
  }

  @EventBatchHandler(Topics.partnerEvents, 'bulk')
  async handleBatch(envelopes: EventEnvelope<PartnerEventV1Payload>[], contexts: MessageContext[] = []): Promise<void> {
    const events = envelopes.flatMap((envelope, i) =>
      envelope?.type === PartnerEventV1 && envelope.businessId
        ? // Each delivery continues the trace of the event it came from.
          [{ envelope, traceContext: carriedTraceContext(contexts[i]?.headers ?? {}) }]
        : [],
    );
    if (events.length === 0) return;
    await this.dataSource.transaction(async (em) => {
      const businessIds = events.map(({ envelope }) => envelope.businessId!);
      await this.endpoints.lockRouting(em, ...businessIds);
      const routes = await this.endpoints.routes(em, businessIds);
      const added = await this.partnerEndpoints.routes(em, businessIds);
      const deliveries: NewDelivery[] = [];
      const early = [];
      for (const { envelope, traceContext } of events) {
        const { event, eventData, callbackUrl } = envelope.payload;
        const common = { businessId: envelope.businessId!, eventId: envelope.eventId, event, eventData };
        const endpoint = routes.get(common.businessId);
        // Onboarding travels on another topic and may land a moment later: park the event until
        // it does, rather than blocking the partition for every other business.
        if (!endpoint) early.push(common);
        else {
          deliveries.push({
            ...common,
            target: 'business',
            url: endpoint.url,
            status: defaultEndpointTakesDeliveries(endpoint) ? 'pending' : 'held',
            traceContext,
          });
          for (const route of added.get(common.businessId) ?? []) {
            if (!subscribes(route, event)) continue;
            deliveries.push({
              ...common,
              target: 'business',
              endpointId: route.id,
              url: route.url,
              // A disabled endpoint holds its deliveries until it is enabled again.
              status: addedEndpointTakesDeliveries(route) ? 'pending' : 'held',
              traceContext,
            });
          }
        }
        if (callbackUrl) deliveries.push({ ...common, target: 'callback', url: callbackUrl, traceContext });
      }
      await this.deliveries.park(em, early);
      await this.deliveries.addMany(em, deliveries);
    });
    this.worker.nudge();
  }
}
