import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { BankTransfersController } from './bank-transfers.controller';
import { InternalTransfersController } from './internal-transfers.controller';

/** Internal transfers and bank payouts, booked by outlet-service. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule],
  controllers: [InternalTransfersController, BankTransfersController],
})
export class TransfersModule {}
