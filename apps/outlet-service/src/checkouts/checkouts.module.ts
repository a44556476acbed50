import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { PartnerEventsModule } from '../events/partner-events.module';
import { MoneyModule } from '../money/money.module';
import { RefundsModule } from '../refunds/refunds.module';
import { CardChargesConsumer } from './card-charges.consumer';
import { CheckoutCommands } from './checkout.commands';
import { CheckoutAccountsRepository } from './checkout-accounts.repository';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';
import { CheckoutPaymentsService } from './checkout-payments.service';

/** Checkout money: dynamic transfer accounts, card and QR payments, and the one decision on how each checkout ends. */
@Module({
  imports: [MoneyModule, PartnerEventsModule, BusinessesModule, RefundsModule],
  controllers: [CardChargesConsumer],
  providers: [CheckoutCommands, CheckoutPaymentsService, CheckoutAccountsRepository, CheckoutOutcomesRepository],
  exports: [CheckoutCommands, CheckoutPaymentsService],
})
export class CheckoutsModule {}
