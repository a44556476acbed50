import { Module } from '@nestjs/common';

import { CardNetworkModule } from '../card-network/card-network.module';
import { IssuerModule } from '../issuer/issuer.module';
import { CardRefundsConsumer } from './card-refunds.consumer';
import { CardRefundsRepository } from './card-refunds.repository';

/** Refunds of card payments, paid back through the card network. */
@Module({
  imports: [IssuerModule, CardNetworkModule],
  controllers: [CardRefundsConsumer],
  providers: [CardRefundsRepository],
})
export class RefundsModule {}
