import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { LedgerModule } from '../ledger/ledger.module';
import { BankTransferUseCase } from './bank-transfer.usecase';
import { InternalTransferUseCase } from './internal-transfer.usecase';
import { PayoutSettings } from './payout-settings';
import { PayoutSettler } from './payout-settler';
import { PayoutsRepository } from './payouts.repository';

/** Internal transfers between wallets, and bank payouts settled later by the rail. */
@Module({
  imports: [LedgerModule, BusinessesModule],
  providers: [InternalTransferUseCase, BankTransferUseCase, PayoutSettings, PayoutSettler, PayoutsRepository],
  exports: [InternalTransferUseCase, BankTransferUseCase, PayoutSettings],
})
export class TransfersModule {}
