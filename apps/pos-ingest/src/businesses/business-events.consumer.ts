import { Controller } from '@nestjs/common';
import { BusinessProvisionedV1, BusinessProvisionedV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';

import { TerminalsRepository } from '../terminals/terminals.repository';

/** Keeps each business's POS key (still sealed) so its terminals can be served. */
@Controller()
export class BusinessEventsConsumer {
  constructor(private readonly terminals: TerminalsRepository) {}

  @EventHandler(Topics.businessEvents)
  async handle(event: EventEnvelope<BusinessProvisionedV1Payload>): Promise<void> {
    if (event?.type !== BusinessProvisionedV1) return;
    const { businessId, mode, sealedPosEncryptionKey } = event.payload;
    // Idempotent by the primary key: a redelivered event changes nothing.
    await this.terminals.addBusiness(businessId, mode, sealedPosEncryptionKey);
  }
}
