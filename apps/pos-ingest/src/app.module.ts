import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';
import { Sealer } from '@payments/platform-crypto';

import { BusinessEventsConsumer } from './businesses/business-events.consumer';
import { Env } from './config/env';
import { database } from './database/data-source';
import { PosRoute } from './pos/pos.route';
import { PosService } from './pos/pos.service';
import { TerminalsRepository } from './terminals/terminals.repository';
import { TerminalsService } from './terminals/terminals.service';
import { CARD_SEALER } from './tokens';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(env, database, { outboxRelay: false })],
      controllers: [BusinessEventsConsumer],
      providers: [
        { provide: Sealer, useValue: new Sealer(env.DATA_ENCRYPTION_KEY) },
        { provide: CARD_SEALER, useValue: new Sealer(env.CARD_DATA_KEY) },
        TerminalsService,
        TerminalsRepository,
        PosService,
        PosRoute,
      ],
    };
  }
}
