import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CheckoutPaidV1, CheckoutPaidV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { CheckoutsService } from './checkouts.service';

/**
 * A checkout's money is in the ledger (bank transfer or card): end it. Ending is idempotent, so
 * redeliveries, and card payments the charge's answer already ended, change nothing.
 */
@Controller()
export class CheckoutPaymentsConsumer {
  constructor(private readonly checkouts: CheckoutsService) {}

  @EventPattern(Topics.checkoutPayments.name)
  async handle(@Payload() event: EventEnvelope<CheckoutPaidV1Payload>): Promise<void> {
    if (event?.type !== CheckoutPaidV1) return;
    const { businessId, checkoutReference, method, maskedCard } = event.payload;
    await this.checkouts.finish(businessId, checkoutReference, 'SUCCESS', {
      usedMethod: method,
      maskedCard: maskedCard ?? null,
      comment: method === 'card' ? 'Paid by card' : 'Paid by bank transfer',
    });
  }
}
