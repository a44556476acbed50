import { Global, Module } from '@nestjs/common';
import { PlatformEnv } from '@payments/platform-config';

import { exportKeyRings } from './key-ring-metrics';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    {
      provide: Metrics,
      inject: [PlatformEnv],
      useFactory: (env: PlatformEnv) => {
        const metrics = new Metrics(env.SERVICE_NAME);
        exportKeyRings(metrics.registry, env);
        return metrics;
      },
    },
  ],
  exports: [Metrics],
})
export class MetricsModule {}
