import { Controller } from '@nestjs/common';
import { CheckoutDecidedV1, CheckoutPaidV1, EventOf, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';

import { CheckoutsService } from './checkouts.service';

/**
 * How the ledger decided a checkout: mirror it on the record. Applying is idempotent, so
 * redeliveries, and outcomes a command's answer already applied, change nothing.
 */
@Controller()
export class CheckoutPaymentsConsumer {
  constructor(private readonly checkouts: CheckoutsService) {}

  @EventHandler(Topics.checkoutPayments)
  async handle(event: EventOf<typeof CheckoutDecidedV1 | typeof CheckoutPaidV1>): Promise<void> {
    if (event?.type === CheckoutDecidedV1) await this.checkouts.applyOutcome(event.payload);
    if (event?.type === CheckoutPaidV1) {
      // Written by outlet-service before outcomes were decided there; read during an upgrade.
      const paid = event.payload;
      await this.checkouts.applyOutcome({
        businessId: paid.businessId,
        checkoutReference: paid.checkoutReference,
        status: 'SUCCESS',
        method: paid.method,
        paymentId: paid.sessionId,
        maskedCard: paid.maskedCard ?? null,
        comment: paid.method === 'card' ? 'Paid by card' : 'Paid by bank transfer',
      });
    }
  }
}
