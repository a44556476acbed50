import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';

import { BusinessesModule } from './businesses/businesses.module';
import { CardPaymentsController } from './checkouts/card-payments.controller';
import { CardPaymentsService } from './checkouts/card-payments.service';
import { CheckoutExpirer } from './checkouts/checkout-expirer';
import { CheckoutPaymentsConsumer } from './checkouts/checkout-payments.consumer';
import { CheckoutsController } from './checkouts/checkouts.controller';
import { CheckoutsRepository } from './checkouts/checkouts.repository';
import { CheckoutsService } from './checkouts/checkouts.service';
import { IdempotencyKeysRepository } from './checkouts/idempotency-keys.repository';
import { SandboxAcsController } from './checkouts/sandbox-acs.controller';
import { TransferAndQrController } from './checkouts/transfer-and-qr.controller';
import { TransferAndQrService } from './checkouts/transfer-and-qr.service';
import { Env } from './config/env';
import { database } from './database/data-source';
import { HostedCheckoutController } from './hosted-page/hosted-checkout.controller';
import { HostedCheckoutService } from './hosted-page/hosted-checkout.service';
import { HostedPageController } from './hosted-page/hosted-page.controller';
import { PageAssets } from './hosted-page/page-assets';
import { KafkaClientsModule } from './kafka-clients/kafka-clients.module';
import { OutletsController } from './outlets/outlets.controller';
import { WalletsController } from './outlets/wallets.controller';
import { SandboxController } from './sandbox/sandbox.controller';
import { TransfersController } from './transfers/transfers.controller';
import { WebhooksController } from './webhooks/webhooks.controller';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(env, database, { outboxRelay: true }), BusinessesModule, KafkaClientsModule],
      controllers: [
        HostedPageController,
        HostedCheckoutController,
        CheckoutsController,
        CardPaymentsController,
        TransferAndQrController,
        CheckoutPaymentsConsumer,
        SandboxAcsController,
        OutletsController,
        WalletsController,
        TransfersController,
        SandboxController,
        WebhooksController,
      ],
      providers: [
        CheckoutsService,
        CheckoutsRepository,
        IdempotencyKeysRepository,
        CheckoutExpirer,
        CardPaymentsService,
        TransferAndQrService,
        HostedCheckoutService,
        PageAssets,
      ],
    };
  }
}
