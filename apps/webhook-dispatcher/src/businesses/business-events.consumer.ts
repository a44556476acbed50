import { Controller } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { BusinessProvisionedV1, BusinessProvisionedV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';
import { ProcessedEvents } from '@payments/platform-outbox';
import { DataSource } from 'typeorm';

import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { EndpointsRepository } from '../endpoints/endpoints.repository';

const consumer = 'webhook-dispatcher.endpoints';

/** Every new business gets an endpoint record: its webhook URL, sealed API key and a signing secret. */
@Controller()
export class BusinessEventsConsumer {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly processed: ProcessedEvents,
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
  ) {}

  @EventHandler(Topics.businessEvents)
  async handle(event: EventEnvelope<BusinessProvisionedV1Payload>): Promise<void> {
    if (event?.type !== BusinessProvisionedV1) return;
    await this.dataSource.transaction(async (em) => {
      if (!(await this.processed.firstDelivery(em, consumer, event.eventId))) return;
      const { businessId, mode, webhookUrl, sealedApiKey } = event.payload;
      await this.endpoints.lockRouting(em, businessId);
      await this.endpoints.provision(em, { businessId, mode, url: webhookUrl, sealedApiKey });
      await this.deliveries.releaseParked(em, businessId, webhookUrl);
    });
  }
}
