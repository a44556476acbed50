import { Module } from '@nestjs/common';
import { Sealer, sealerFor } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { CARD_SEALER } from '../tokens';
import { SandboxVerification } from './sandbox-verification';

/** The sandbox cards' verification steps, and the key that opens card data. */
@Module({
  providers: [
    SandboxVerification,
    {
      provide: CARD_SEALER,
      inject: [Env],
      useFactory: (env: Env) => sealerFor(Sealer, env.CARD_DATA_KEY, env),
    },
  ],
  exports: [SandboxVerification, CARD_SEALER],
})
export class IssuerModule {}
