import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';

import { BusinessesModule } from './businesses/businesses.module';
import { CommandsModule } from './commands/commands.module';
import { Env } from './config/env';
import { database } from './database/data-source';
import { PosModule } from './pos/pos.module';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(env, database, { outboxRelay: true }),
        BusinessesModule,
        CommandsModule,
        PosModule,
      ],
    };
  }
}
