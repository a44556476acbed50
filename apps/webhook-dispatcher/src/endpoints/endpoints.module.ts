import { Module } from '@nestjs/common';
import { ApiKeySealer, sealerFor, WebhookSecretSealer } from '@payments/platform-crypto';

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
    {
      provide: ApiKeySealer,
      inject: [Env],
      useFactory: (env: Env) => sealerFor(ApiKeySealer, env.API_KEY_SEALING_KEY, env),
    },
    {
      provide: WebhookSecretSealer,
      inject: [Env],
      useFactory: (env: Env) => sealerFor(WebhookSecretSealer, env.WEBHOOK_SECRET_SEALING_KEY, env),
    },
  ],
  exports: [EndpointsRepository, PartnerEndpointsRepository, SecretRollsRepository],
})
export class EndpointsModule {}
