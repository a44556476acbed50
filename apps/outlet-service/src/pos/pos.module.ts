import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { LedgerModule } from '../ledger/ledger.module';
import { PosCreditUseCase } from './pos-credit.usecase';
import { PosOutcomesConsumer } from './pos-outcomes.consumer';

/** Approved POS transactions credited to their outlet's collection wallet. */
@Module({
  imports: [LedgerModule, BusinessesModule],
  controllers: [PosOutcomesConsumer],
  providers: [PosCreditUseCase],
})
export class PosModule {}
