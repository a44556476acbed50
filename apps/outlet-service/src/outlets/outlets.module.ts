import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { PartnerEventsModule } from '../events/partner-events.module';
import { MoneyModule } from '../money/money.module';
import { OutletCommands } from './outlet.commands';
import { OutletsRepository } from './outlets.repository';
import { OutletsService } from './outlets.service';

/** Outlets, each created with its collection and deposit wallets. */
@Module({
  imports: [MoneyModule, PartnerEventsModule, BusinessesModule],
  providers: [OutletCommands, OutletsService, OutletsRepository],
  exports: [OutletCommands],
})
export class OutletsModule {}
