import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { PartnerEventsModule } from '../events/partner-events.module';
import { MoneyModule } from '../money/money.module';
import { RailsModule } from '../rails/rails.module';
import { BankTransferUseCase } from './bank-transfer.usecase';
import { InternalTransferUseCase } from './internal-transfer.usecase';
import { PayoutSettler } from './payout-settler';
import { PayoutsRepository } from './payouts.repository';
import { TransferCommands } from './transfer.commands';

/** Internal transfers between wallets, and bank payouts settled later by the rail. */
@Module({
  imports: [MoneyModule, PartnerEventsModule, RailsModule, BusinessesModule],
  providers: [TransferCommands, InternalTransferUseCase, BankTransferUseCase, PayoutSettler, PayoutsRepository],
  exports: [TransferCommands],
})
export class TransfersModule {}
