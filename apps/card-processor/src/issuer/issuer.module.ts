import { Module } from '@nestjs/common';
import { Sealer } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { CARD_SEALER } from '../tokens';
import { SandboxIssuer } from './sandbox-issuer';

/** The issuer that decides charges and POS transactions, and the key that opens their card data. */
@Module({
  providers: [
    SandboxIssuer,
    { provide: CARD_SEALER, inject: [Env], useFactory: (env: Env) => new Sealer(env.CARD_DATA_KEY) },
  ],
  exports: [SandboxIssuer, CARD_SEALER],
})
export class IssuerModule {}
