import { Module } from '@nestjs/common';
import { PosKeySealer, sealerFor } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { TerminalsRepository } from './terminals.repository';
import { TerminalsService } from './terminals.service';

/** Terminals and their businesses' POS keys (sealed under POS_KEY_SEALING_KEY), behind a cache. */
@Module({
  providers: [
    TerminalsService,
    TerminalsRepository,
    {
      provide: PosKeySealer,
      inject: [Env],
      useFactory: (env: Env) => sealerFor(PosKeySealer, env.POS_KEY_SEALING_KEY, env),
    },
  ],
  exports: [TerminalsService, TerminalsRepository],
})
export class TerminalsModule {}
