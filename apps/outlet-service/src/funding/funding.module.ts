import { Module } from '@nestjs/common';

import { CheckoutsModule } from '../checkouts/checkouts.module';
import { PartnerEventsModule } from '../events/partner-events.module';
import { MoneyModule } from '../money/money.module';
import { CreditVirtualAccountUseCase } from './credit-virtual-account.usecase';
import { FundingCommands } from './funding.commands';

/** Money arriving on virtual accounts from the sandbox bank rail. */
@Module({
  imports: [MoneyModule, PartnerEventsModule, CheckoutsModule],
  providers: [FundingCommands, CreditVirtualAccountUseCase],
  exports: [FundingCommands],
})
export class FundingModule {}
