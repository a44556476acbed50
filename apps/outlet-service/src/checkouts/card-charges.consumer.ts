import { Controller } from '@nestjs/common';
import { CardChargeSucceededV1, CardChargeSucceededV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';

import { AwaitingOnboarding } from '../businesses/awaiting-onboarding';
import { CheckoutPaymentsService } from './checkout-payments.service';

/**
 * A checkout's card charge succeeded in card-processor. The gateway books it as it answers the
 * customer; this event books it when the gateway could not (a crash, a timeout). Either way
 * the charge is booked once.
 */
@Controller()
export class CardChargesConsumer {
  constructor(
    payments: CheckoutPaymentsService,
    private readonly awaiting: AwaitingOnboarding,
  ) {
    awaiting.register<CardChargeSucceededV1Payload>('card-charge', async (event) => {
      await payments.payCard(event.payload);
    });
  }

  @EventHandler(Topics.cardCharges)
  async handle(event: EventEnvelope<CardChargeSucceededV1Payload>): Promise<void> {
    if (event?.type !== CardChargeSucceededV1) return;
    await this.awaiting.apply('card-charge', event);
  }
}
