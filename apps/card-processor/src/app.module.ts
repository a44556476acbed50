import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';
import { Sealer } from '@payments/platform-crypto';

import { CardCharges } from './charges/card-charges';
import { CardCommandsController } from './charges/card-commands.controller';
import { Env } from './config/env';
import { database } from './database/data-source';
import { SandboxIssuer } from './issuer/sandbox-issuer';
import { CARD_SEALER, PosTransactionsConsumer } from './pos/pos-transactions.consumer';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(env, database, { outboxRelay: true })],
      controllers: [PosTransactionsConsumer, CardCommandsController],
      providers: [{ provide: CARD_SEALER, useValue: new Sealer(env.CARD_DATA_KEY) }, SandboxIssuer, CardCharges],
    };
  }
}
