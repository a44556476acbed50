import { Module } from '@nestjs/common';
import { Sealer } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { EndpointsRepository } from './endpoints.repository';
import { PartnerEndpointsRepository } from './partner-endpoints.repository';
import { SecretRollsRepository } from './secret-rolls.repository';

/** Each business's webhook endpoints (its default one and those it added) and their signing keys, kept sealed. */
@Module({
  providers: [
    EndpointsRepository,
    PartnerEndpointsRepository,
    SecretRollsRepository,
    { provide: Sealer, inject: [Env], useFactory: (env: Env) => new Sealer(env.DATA_ENCRYPTION_KEY) },
  ],
  exports: [EndpointsRepository, PartnerEndpointsRepository, SecretRollsRepository],
})
export class EndpointsModule {}
