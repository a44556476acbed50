import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { OutletsController } from './outlets.controller';

/** Outlets, their sweeps and wallets, served by outlet-service. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule],
  controllers: [OutletsController],
})
export class OutletsModule {}
