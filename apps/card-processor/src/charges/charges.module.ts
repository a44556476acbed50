import { Module } from '@nestjs/common';

import { IssuerModule } from '../issuer/issuer.module';
import { CardChargesRepository } from './card-charges.repository';
import { CardChargesService } from './card-charges.service';
import { CardCommandsController } from './card-commands.controller';

/** Card charges for checkouts and their verification steps, asked for by the gateway. */
@Module({
  imports: [IssuerModule],
  controllers: [CardCommandsController],
  providers: [CardChargesService, CardChargesRepository],
})
export class ChargesModule {}
