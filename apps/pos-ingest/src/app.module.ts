import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';
import { Sealer } from '@payments/platform-crypto';

import { Env } from './config/env';
import { database } from './database/data-source';
import { BusinessEventsConsumer } from './integrators/business-events.consumer';
import { PosRoute } from './pos/pos.route';
import { CARD_SEALER, PosService } from './pos/pos.service';
import { Terminals } from './terminals/terminals';

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
        Terminals,
        PosService,
        PosRoute,
      ],
    };
  }
}
