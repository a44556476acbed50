import { Module } from '@nestjs/common';

import { CheckoutsModule } from '../checkouts/checkouts.module';
import { FundingModule } from '../funding/funding.module';
import { OutletsModule } from '../outlets/outlets.module';
import { RefundsModule } from '../refunds/refunds.module';
import { SweepsModule } from '../sweeps/sweeps.module';
import { TransfersModule } from '../transfers/transfers.module';
import { OutletCommandsController } from './outlet-commands.controller';

/** The gateway's requests, answered by the feature that owns each. */
@Module({
  imports: [OutletsModule, CheckoutsModule, FundingModule, TransfersModule, SweepsModule, RefundsModule],
  controllers: [OutletCommandsController],
})
export class CommandsModule {}
