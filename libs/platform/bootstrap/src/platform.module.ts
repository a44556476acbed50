import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { PlatformEnv } from '@payments/platform-config';
import { AppDatabase, DatabaseModule } from '@payments/platform-database';
import { ApiExceptionFilter, createValidationPipe } from '@payments/platform-envelope';
import { HealthModule } from '@payments/platform-health';
import { KafkaModule } from '@payments/platform-kafka';
import { LoggingModule } from '@payments/platform-logging';
import { MetricsModule } from '@payments/platform-metrics';
import { OutboxModule } from '@payments/platform-outbox';

import { EnvModule } from './env.module';

/**
 * Everything an app needs from the platform: config, logs, database, Kafka, outbox, health, metrics,
 * the error envelope and validation. The success envelope is the HTTP adapter's (createApp).
 */
@Module({})
export class PlatformModule {
  /** `outboxRelay`: whether the app writes events to its outbox, and so relays them to Kafka. */
  static forRoot(env: PlatformEnv, database: AppDatabase, options: { outboxRelay: boolean }): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        EnvModule.register(env),
        LoggingModule.forRoot(),
        DatabaseModule.forApp(database),
        KafkaModule,
        OutboxModule.forRoot({ relay: options.outboxRelay }),
        MetricsModule,
        HealthModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
