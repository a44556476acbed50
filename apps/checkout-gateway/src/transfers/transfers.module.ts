import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { TransfersController } from './transfers.controller';

/** Internal transfers and bank payouts, booked by outlet-service. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule],
  controllers: [TransfersController],
})
export class TransfersModule {}
