import { Controller } from '@nestjs/common';
import { BusinessKeysRolledV1, BusinessProvisionedV1, EventOf, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';
import { ProcessedEvents } from '@payments/platform-outbox';
import { DataSource } from 'typeorm';

import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { EndpointsRepository } from '../endpoints/endpoints.repository';

const consumer = 'webhook-dispatcher.endpoints';

/**
 * Every new business gets an endpoint record: its webhook URL, sealed API key and a signing
 * secret; a roll of its keys replaces the key, keeping the previous one for its grace period.
 */
@Controller()
export class BusinessEventsConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly processed: ProcessedEvents,
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
  ) {}

  @EventHandler(Topics.businessEvents)
  async handle(event: EventOf<typeof BusinessProvisionedV1 | typeof BusinessKeysRolledV1>): Promise<void> {
    if (event?.type !== BusinessProvisionedV1 && event?.type !== BusinessKeysRolledV1) return;
    await this.dataSource.transaction(async (em) => {
      if (!(await this.processed.firstDelivery(em, consumer, event.eventId))) return;
      if (event.type === BusinessKeysRolledV1) {
        const { businessId, sealedApiKey, previousKeyExpiresAt } = event.payload;
        await this.endpoints.rollApiKey(em, businessId, sealedApiKey, new Date(previousKeyExpiresAt));
        return;
      }
      const { businessId, mode, webhookUrl, sealedApiKey } = event.payload;
      await this.endpoints.lockRouting(em, businessId);
      await this.endpoints.provision(em, { businessId, mode, url: webhookUrl, sealedApiKey });
      await this.deliveries.releaseParked(em, businessId, webhookUrl);
    });
  }
}
