import { Injectable } from '@nestjs/common';
import { PartnerEventName, PartnerEventV1, PartnerEventV1Payload, Topics } from '@payments/contracts';
import { Outbox } from '@payments/platform-outbox';
import { EntityManager } from 'typeorm';

/** Queues a webhook-visible event in the caller's transaction; it is published after commit. */
@Injectable()
export class PartnerEventsOutbox {
  constructor(private readonly outbox: Outbox) {}

  async add(em: EntityManager, businessId: string, event: PartnerEventName, eventData: object): Promise<void> {
    await this.outbox.enqueue<PartnerEventV1Payload>(em, {
      topic: Topics.partnerEvents,
      type: PartnerEventV1,
      key: businessId,
      businessId,
      payload: { event, eventData: eventData as Record<string, unknown> },
    });
  }
}
