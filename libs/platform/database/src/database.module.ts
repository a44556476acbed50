import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformEnv } from '@payments/platform-config';

import { AppDatabase, postgresOptions } from './postgres-options';

/** The app's AppDatabase, for what needs its grants (SchemaState). */
export const APP_DATABASE = Symbol('APP_DATABASE');

@Module({})
export class DatabaseModule {
  static forApp(database: AppDatabase): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [{ provide: APP_DATABASE, useValue: database }],
      exports: [APP_DATABASE],
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [PlatformEnv],
          useFactory: (env: PlatformEnv) => postgresOptions(env.DATABASE_URL, env.DATABASE_POOL_SIZE, database),
        }),
      ],
    };
  }
}
