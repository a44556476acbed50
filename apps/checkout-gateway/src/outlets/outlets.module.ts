import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { OutletsController } from './outlets.controller';
import { SweepSettingsController } from './sweep-settings.controller';
import { WalletsController } from './wallets.controller';

/** Outlets, their sweeps and wallets, served by outlet-service. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule],
  controllers: [OutletsController, SweepSettingsController, WalletsController],
})
export class OutletsModule {}
