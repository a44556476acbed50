import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { CheckoutsModule } from '../checkouts/checkouts.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { RefundsController } from './refunds.controller';

/** Refunds, booked and settled by outlet-service. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule, CheckoutsModule],
  controllers: [RefundsController],
})
export class RefundsModule {}
