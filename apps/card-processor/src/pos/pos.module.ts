import { Module } from '@nestjs/common';

import { CardNetworkModule } from '../card-network/card-network.module';
import { IssuerModule } from '../issuer/issuer.module';
import { PosAuthorisationsRepository } from './pos-authorisations.repository';
import { PosTransactionsConsumer } from './pos-transactions.consumer';

/** Accepted POS transactions authorised on the card network once per reference. */
@Module({
  imports: [IssuerModule, CardNetworkModule],
  controllers: [PosTransactionsConsumer],
  providers: [PosAuthorisationsRepository],
})
export class PosModule {}
