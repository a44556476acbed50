import { Controller } from '@nestjs/common';
import { CardChargeSucceededV1, CardChargeSucceededV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';
import { untilOnboarded } from '../tenants/until-onboarded';
import { CheckoutPayments } from './checkout-payments';

/**
 * A checkout's card charge succeeded in card-processor. The gateway books it as it answers the
 * customer; this event books it when the gateway could not (a crash, a timeout). Either way
 * the charge is booked once.
 */
@Controller()
export class CardChargesConsumer {
  constructor(private readonly payments: CheckoutPayments) {}

  @EventHandler(Topics.cardCharges)
  async handle(event: EventEnvelope<CardChargeSucceededV1Payload>): Promise<void> {
    if (event?.type !== CardChargeSucceededV1) return;
    await untilOnboarded(event.payload.businessId, () => this.payments.payCard(event.payload));
  }
}
