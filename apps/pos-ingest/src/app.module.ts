import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';
import { Env } from './config/env';
import { database } from './database/data-source';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return { module: AppModule, imports: [PlatformModule.forRoot(env, database)] };
  }
}
