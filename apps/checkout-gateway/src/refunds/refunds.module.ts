import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { CheckoutsModule } from '../checkouts/checkouts.module';
import { KnownQueryParameters } from '../common/known-query-parameters';
import { pageCursorsProvider } from '../common/page-cursors';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { RefundsController } from './refunds.controller';
import { RefundsService } from './refunds.service';

/** Refunds, booked and settled by outlet-service. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule, CheckoutsModule],
  providers: [RefundsService, pageCursorsProvider, KnownQueryParameters],
  controllers: [RefundsController],
  exports: [RefundsService],
})
export class RefundsModule {}
