import { Module } from '@nestjs/common';
import { Sealer } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { ApiKeyGuard } from './api-key.guard';
import { BusinessController } from './business.controller';
import { BusinessesRepository } from './businesses.repository';
import { BusinessesService } from './businesses.service';

@Module({
  controllers: [BusinessController],
  providers: [
    BusinessesService,
    BusinessesRepository,
    ApiKeyGuard,
    { provide: Sealer, inject: [Env], useFactory: (env: Env) => new Sealer(env.DATA_ENCRYPTION_KEY) },
  ],
  exports: [BusinessesService, ApiKeyGuard],
})
export class BusinessesModule {}
