import { Injectable } from '@nestjs/common';
import { PartnerEventName, PartnerEventV1, PartnerEventV1Payload, Topics } from '@payments/contracts';
import { Outbox, OutboxRow } from '@payments/platform-outbox';
import { EntityManager } from 'typeorm';

/** Queues a webhook-visible event in the caller's transaction; it is published after commit. */
@Injectable()
export class PartnerEventsOutbox {
  constructor(private readonly outbox: Outbox) {}

  /** The outbox row `add` would write, for a write that inserts it itself. */
  row(businessId: string, event: PartnerEventName, eventData: object): OutboxRow<PartnerEventV1Payload> {
    return this.outbox.row<PartnerEventV1Payload>({
      topic: Topics.partnerEvents,
      type: PartnerEventV1,
      key: businessId,
      businessId,
      payload: { event, eventData: eventData as Record<string, unknown> },
    });
  }

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
