import { Module } from '@nestjs/common';

import { CardNetworkModule } from '../card-network/card-network.module';
import { IssuerModule } from '../issuer/issuer.module';
import { CardChargesRepository } from './card-charges.repository';
import { CardChargesService } from './card-charges.service';
import { CardCommandsController } from './card-commands.controller';

/** Card charges for checkouts, their verification steps and their network step, asked for by the gateway. */
@Module({
  imports: [IssuerModule, CardNetworkModule],
  controllers: [CardCommandsController],
  providers: [CardChargesService, CardChargesRepository],
})
export class ChargesModule {}
