import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { LedgerModule } from '../ledger/ledger.module';
import { SweepSettingsService } from './sweep-settings.service';
import { Sweeper } from './sweeper';

/** Automatic sweeps of collection wallets into the settlement wallet. */
@Module({
  imports: [LedgerModule, BusinessesModule],
  providers: [SweepSettingsService, Sweeper],
  exports: [SweepSettingsService],
})
export class SweepsModule {}
