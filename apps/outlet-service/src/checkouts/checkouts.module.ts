import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { PartnerEventsModule } from '../events/partner-events.module';
import { MoneyModule } from '../money/money.module';
import { RefundsModule } from '../refunds/refunds.module';
import { CardChargesConsumer } from './card-charges.consumer';
import { CardCheckoutPayments } from './card-checkout-payments';
import { CheckoutCommands } from './checkout.commands';
import { CheckoutAccountsRepository } from './checkout-accounts.repository';
import { CheckoutBooking } from './checkout-booking';
import { CheckoutClosings } from './checkout-closings';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';
import { QrCheckoutPayments } from './qr-checkout-payments';
import { TransferCheckoutPayments } from './transfer-checkout-payments';

/** Checkout money: dynamic transfer accounts, card and QR payments, and the one decision on how each checkout ends. */
@Module({
  imports: [MoneyModule, PartnerEventsModule, BusinessesModule, RefundsModule],
  controllers: [CardChargesConsumer],
  providers: [
    CheckoutCommands,
    CheckoutBooking,
    CardCheckoutPayments,
    TransferCheckoutPayments,
    QrCheckoutPayments,
    CheckoutClosings,
    CheckoutAccountsRepository,
    CheckoutOutcomesRepository,
  ],
  exports: [CheckoutCommands, TransferCheckoutPayments],
})
export class CheckoutsModule {}
