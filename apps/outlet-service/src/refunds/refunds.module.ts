import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { LedgerModule } from '../ledger/ledger.module';
import { TransfersModule } from '../transfers/transfers.module';
import { RefundSettler } from './refund-settler';
import { RefundablePaymentsRepository } from './refundable-payments.repository';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';

/** Refunds partners ask for, and the sandbox rail that settles them. */
@Module({
  imports: [BusinessesModule, LedgerModule, TransfersModule],
  providers: [RefundsRepository, RefundablePaymentsRepository, RefundsService, RefundSettler],
  exports: [RefundsService, RefundsRepository],
})
export class RefundsModule {}
