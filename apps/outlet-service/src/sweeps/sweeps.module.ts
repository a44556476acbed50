import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { PartnerEventsModule } from '../events/partner-events.module';
import { MoneyModule } from '../money/money.module';
import { SweepCommands } from './sweep.commands';
import { SweepSettingsService } from './sweep-settings.service';
import { Sweeper } from './sweeper';

/** Automatic sweeps of collection wallets into the settlement wallet. */
@Module({
  imports: [MoneyModule, PartnerEventsModule, BusinessesModule],
  providers: [SweepCommands, SweepSettingsService, Sweeper],
  exports: [SweepCommands],
})
export class SweepsModule {}
