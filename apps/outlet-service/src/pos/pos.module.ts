import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { PartnerEventsModule } from '../events/partner-events.module';
import { MoneyModule } from '../money/money.module';
import { PosCreditUseCase } from './pos-credit.usecase';
import { PosOutcomesConsumer } from './pos-outcomes.consumer';

/** Approved POS transactions credited to their outlet's collection wallet. */
@Module({
  imports: [MoneyModule, PartnerEventsModule, BusinessesModule],
  controllers: [PosOutcomesConsumer],
  providers: [PosCreditUseCase],
})
export class PosModule {}
