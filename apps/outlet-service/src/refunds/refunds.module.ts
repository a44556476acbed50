import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { PartnerEventsModule } from '../events/partner-events.module';
import { MoneyModule } from '../money/money.module';
import { RailsModule } from '../rails/rails.module';
import { CardRefundOutcomesConsumer } from './card-refund-outcomes.consumer';
import { RefundCommands } from './refund.commands';
import { RefundSettler } from './refund-settler';
import { RefundablePaymentsRepository } from './refundable-payments.repository';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';

/** Refunds partners ask for, paid back by the sandbox rail or, for card payments, the card network. */
@Module({
  imports: [BusinessesModule, MoneyModule, PartnerEventsModule, RailsModule],
  controllers: [CardRefundOutcomesConsumer],
  providers: [RefundCommands, RefundsRepository, RefundablePaymentsRepository, RefundsService, RefundSettler],
  exports: [RefundCommands, RefundsRepository],
})
export class RefundsModule {}
