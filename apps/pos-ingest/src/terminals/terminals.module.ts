import { Module } from '@nestjs/common';
import { Sealer } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { TerminalsRepository } from './terminals.repository';
import { TerminalsService } from './terminals.service';

/** Terminals and their businesses' POS keys (sealed under DATA_ENCRYPTION_KEY), behind a cache. */
@Module({
  providers: [
    TerminalsService,
    TerminalsRepository,
    { provide: Sealer, inject: [Env], useFactory: (env: Env) => new Sealer(env.DATA_ENCRYPTION_KEY) },
  ],
  exports: [TerminalsService, TerminalsRepository],
})
export class TerminalsModule {}
