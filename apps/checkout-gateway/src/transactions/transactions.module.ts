import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { KnownQueryParameters } from '../common/known-query-parameters';
import { pageCursorsProvider } from '../common/page-cursors';
import { TransactionsConsumer } from './transactions.consumer';
import { TransactionsController } from './transactions.controller';
import { TransactionsRepository } from './transactions.repository';
import { TransactionsService } from './transactions.service';

/** The transaction history: kept from the partner events, listed, fetched and exported. */
@Module({
  imports: [BusinessesModule],
  controllers: [TransactionsController, TransactionsConsumer],
  providers: [TransactionsRepository, TransactionsService, pageCursorsProvider, KnownQueryParameters],
  exports: [TransactionsService],
})
export class TransactionsModule {}
