import { Module } from '@nestjs/common';
import { Sealer, sealerFor } from '@payments/platform-crypto';
import { RateLimitsModule } from '@payments/platform-rate-limit';

import { Env } from '../config/env';
import { database } from '../database/data-source';
import { TerminalsModule } from '../terminals/terminals.module';
import { CARD_SEALER } from '../tokens';
import { PosRoute } from './pos.route';
import { PosService } from './pos.service';
import { PosMetrics } from './pos-metrics';

/** The POS ingest route: decrypt, check, seal the card data and publish, on a lean Fastify route. */
@Module({
  imports: [TerminalsModule, RateLimitsModule.forSchema(database.schema)],
  providers: [
    PosService,
    PosMetrics,
    PosRoute,
    {
      provide: CARD_SEALER,
      inject: [Env],
      useFactory: (env: Env) => sealerFor(Sealer, env.CARD_DATA_KEY, env),
    },
  ],
})
export class PosModule {}
