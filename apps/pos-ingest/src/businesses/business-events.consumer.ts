import { Controller } from '@nestjs/common';
import { BusinessProvisionedV1, EventOf, OutletOpenedV1, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';

import { TerminalsRepository } from '../terminals/terminals.repository';

/**
 * Keeps each business's POS key (still sealed) so its terminals can be served, and the outlets
 * outlet-service opened for it, so a terminal is registered only to one of them.
 */
@Controller()
export class BusinessEventsConsumer {
  constructor(private readonly terminals: TerminalsRepository) {}

  // Idempotent by the primary keys: a redelivered event changes nothing.
  @EventHandler(Topics.businessEvents)
  async handle(event: EventOf<typeof BusinessProvisionedV1 | typeof OutletOpenedV1>): Promise<void> {
    if (event?.type === BusinessProvisionedV1) {
      const { businessId, mode, sealedPosEncryptionKey } = event.payload;
      await this.terminals.addBusiness(businessId, mode, sealedPosEncryptionKey);
    } else if (event?.type === OutletOpenedV1) {
      await this.terminals.addOutlet(event.payload.businessId, event.payload.outletId);
    }
  }
}
