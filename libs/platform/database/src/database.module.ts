import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformEnv } from '@payments/platform-config';

import { AppDatabase, postgresOptions } from './postgres-options';

@Module({})
export class DatabaseModule {
  static forApp(database: AppDatabase): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [PlatformEnv],
          useFactory: (env: PlatformEnv) => postgresOptions(env.DATABASE_URL, env.DATABASE_POOL_SIZE, database),
        }),
      ],
    };
  }
}
