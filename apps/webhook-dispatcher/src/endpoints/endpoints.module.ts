import { Module } from '@nestjs/common';
import { Sealer } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { EndpointsRepository } from './endpoints.repository';

/** Each business's webhook endpoint and its signing keys, kept sealed. */
@Module({
  providers: [
    EndpointsRepository,
    { provide: Sealer, inject: [Env], useFactory: (env: Env) => new Sealer(env.DATA_ENCRYPTION_KEY) },
  ],
  exports: [EndpointsRepository],
})
export class EndpointsModule {}
