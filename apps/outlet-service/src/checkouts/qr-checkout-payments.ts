import { Injectable } from '@nestjs/common';
import { CheckoutPaymentResult } from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { MoneyCommandsRepository } from '../money/money-commands.repository';
import { CheckoutBooking } from './checkout-booking';
import { paidByQr, qrRefusal } from './checkout-decisions';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';

/** Checkouts paid by the sandbox wallet app scanning their QR code. */
@Injectable()
export class QrCheckoutPayments {
  constructor(
    private readonly dataSource: DataSource,
    private readonly businesses: BusinessesRepository,
    private readonly commands: MoneyCommandsRepository,
    private readonly outcomes: CheckoutOutcomesRepository,
    private readonly booking: CheckoutBooking,
  ) {}

  /** Booked and decided together, or refused when the checkout was decided first. */
  async pay(
    businessId: string,
    checkoutReference: string,
    amount: string,
    paymentId: string,
  ): Promise<CheckoutPaymentResult> {
    return this.dataSource.transaction(async (em) => {
      await this.businesses.require(em, businessId);
      const key = { namespace: 'qr-payment', reference: paymentId } as const;
      return this.commands.once(em, businessId, key, 'qr_payment', { checkoutReference, amount }, async () => {
        const { outcome, decided } = await this.outcomes.decide(em, paidByQr(businessId, checkoutReference, paymentId));
        if (!decided) throw apiError('CHECKOUT_NOT_PAYABLE', qrRefusal(outcome));
        return { outcome: (await this.booking.book(em, outcome, amount)).outcome, accepted: true };
      });
    });
  }
}
