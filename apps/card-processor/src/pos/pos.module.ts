import { Module } from '@nestjs/common';

import { IssuerModule } from '../issuer/issuer.module';
import { PosAuthorisationsRepository } from './pos-authorisations.repository';
import { PosTransactionsConsumer } from './pos-transactions.consumer';

/** Accepted POS transactions authorised once per reference. */
@Module({
  imports: [IssuerModule],
  controllers: [PosTransactionsConsumer],
  providers: [PosAuthorisationsRepository],
})
export class PosModule {}
