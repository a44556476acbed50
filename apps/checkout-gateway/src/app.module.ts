import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';

import { BusinessesModule } from './businesses/businesses.module';
import { CheckoutsModule } from './checkouts/checkouts.module';
import { Env } from './config/env';
import { database } from './database/data-source';
import { HostedPageModule } from './hosted-page/hosted-page.module';
import { OutletsModule } from './outlets/outlets.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { TransfersModule } from './transfers/transfers.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(env, database, { outboxRelay: true }),
        BusinessesModule,
        HostedPageModule,
        CheckoutsModule,
        OutletsModule,
        TransfersModule,
        SandboxModule,
        WebhooksModule,
      ],
    };
  }
}
