import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';
import { Sealer } from '@payments/platform-crypto';

import { CardChargesRepository } from './charges/card-charges.repository';
import { CardChargesService } from './charges/card-charges.service';
import { CardCommandsController } from './charges/card-commands.controller';
import { Env } from './config/env';
import { database } from './database/data-source';
import { SandboxIssuer } from './issuer/sandbox-issuer';
import { PosAuthorisationsRepository } from './pos/pos-authorisations.repository';
import { PosTransactionsConsumer } from './pos/pos-transactions.consumer';
import { CARD_SEALER } from './tokens';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(env, database, { outboxRelay: true })],
      controllers: [PosTransactionsConsumer, CardCommandsController],
      providers: [
        { provide: CARD_SEALER, useValue: new Sealer(env.CARD_DATA_KEY) },
        SandboxIssuer,
        CardChargesService,
        CardChargesRepository,
        PosAuthorisationsRepository,
      ],
    };
  }
}
