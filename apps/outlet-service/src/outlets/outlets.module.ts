import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { LedgerModule } from '../ledger/ledger.module';
import { OutletsRepository } from './outlets.repository';
import { OutletsService } from './outlets.service';

/** Outlets, each created with its collection and deposit wallets. */
@Module({
  imports: [LedgerModule, BusinessesModule],
  providers: [OutletsService, OutletsRepository],
  exports: [OutletsService],
})
export class OutletsModule {}
