import { Global, Module } from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';

import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    { provide: Metrics, inject: [PlatformEnv], useFactory: (env: PlatformEnv) => new Metrics(env.SERVICE_NAME) },
  ],
  exports: [Metrics],
})
export class MetricsModule {}
