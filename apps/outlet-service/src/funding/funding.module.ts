import { Module } from '@nestjs/common';

import { CheckoutsModule } from '../checkouts/checkouts.module';
import { LedgerModule } from '../ledger/ledger.module';
import { CreditVirtualAccountUseCase } from './credit-virtual-account.usecase';

/** Money arriving on virtual accounts from the sandbox bank rail. */
@Module({
  imports: [LedgerModule, CheckoutsModule],
  providers: [CreditVirtualAccountUseCase],
  exports: [CreditVirtualAccountUseCase],
})
export class FundingModule {}
