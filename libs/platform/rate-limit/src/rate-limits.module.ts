import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Metrics } from '@payments/platform-metrics';
import { DataSource } from 'typeorm';

import { RateLimits } from './rate-limits';

const RATE_LIMIT_SCHEMA = Symbol('RATE_LIMIT_SCHEMA');

/** Sweeps ended windows while the app runs. */
@Injectable()
class WindowSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(@Inject(RateLimits) private readonly limits: RateLimits) {}

  onApplicationBootstrap(): void {
    this.limits.startSweeping();
  }

  onModuleDestroy(): void {
    this.limits.stopSweeping();
  }
}

/** `RateLimits` for an app, counted in the tables its migrations made in `schema`. */
@Module({})
export class RateLimitsModule {
  static forSchema(schema: string): DynamicModule {
    return {
      module: RateLimitsModule,
      providers: [
        { provide: RATE_LIMIT_SCHEMA, useValue: schema },
        {
          provide: RateLimits,
          inject: [DataSource, Metrics, RATE_LIMIT_SCHEMA],
          useFactory: (dataSource: DataSource, metrics: Metrics, appSchema: string) =>
            new RateLimits(dataSource, appSchema, metrics.registry),
        },
        WindowSweeper,
      ],
      exports: [RateLimits],
    };
  }
}
