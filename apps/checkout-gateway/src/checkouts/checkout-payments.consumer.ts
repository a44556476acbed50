import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CheckoutPaidV1, CheckoutPaidV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { CheckoutsService } from './checkouts.service';

/** A bank transfer paid a checkout: end it. Ending is idempotent, so redeliveries change nothing. */
@Controller()
export class CheckoutPaymentsConsumer {
  constructor(private readonly checkouts: CheckoutsService) {}

  @EventPattern(Topics.checkoutPayments.name)
  async handle(@Payload() event: EventEnvelope<CheckoutPaidV1Payload>): Promise<void> {
    if (event?.type !== CheckoutPaidV1) return;
    const { businessId, checkoutReference, method } = event.payload;
    await this.checkouts.finish(businessId, checkoutReference, 'SUCCESS', { usedMethod: method, maskedCard: null, comment: 'Paid by bank transfer' });
  }
}
