import { Module } from '@nestjs/common';
import { ApiKeySealer, PosKeySealer, sealerFor } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { ApiKeyGuard } from './api-key.guard';
import { BusinessController } from './business.controller';
import { BusinessKeysController } from './business-keys.controller';
import { BusinessKeysRepository } from './business-keys.repository';
import { BusinessKeysService } from './business-keys.service';
import { BusinessesRepository } from './businesses.repository';
import { BusinessesService } from './businesses.service';
import { KeyExpiryRecorder } from './key-expiry-recorder';
import { Onboarding } from './onboarding';
import { OnboardingRepository } from './onboarding.repository';
import { PartnerAdmission } from './partner-admission';

@Module({
  imports: [KafkaClientsModule],
  controllers: [BusinessController, BusinessKeysController],
  providers: [
    BusinessesService,
    BusinessesRepository,
    BusinessKeysService,
    BusinessKeysRepository,
    KeyExpiryRecorder,
    Onboarding,
    OnboardingRepository,
    ApiKeyGuard,
    PartnerAdmission,
    {
      provide: ApiKeySealer,
      inject: [Env],
      useFactory: (env: Env) => sealerFor(ApiKeySealer, env.API_KEY_SEALING_KEY, env),
    },
    {
      provide: PosKeySealer,
      inject: [Env],
      useFactory: (env: Env) => sealerFor(PosKeySealer, env.POS_KEY_SEALING_KEY, env),
    },
  ],
  exports: [BusinessesService, ApiKeyGuard, PartnerAdmission, Onboarding],
})
export class BusinessesModule {}
