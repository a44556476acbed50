import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { CardTestingModule } from '../card-testing/card-testing.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { CardPaymentsController } from './card-payments.controller';
import { CardPaymentsService } from './card-payments.service';
import { CheckoutExpirer } from './checkout-expirer';
import { CheckoutPaymentsConsumer } from './checkout-payments.consumer';
import { CheckoutsController } from './checkouts.controller';
import { CheckoutsRepository } from './checkouts.repository';
import { CheckoutsService } from './checkouts.service';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { SandboxAcsController } from './sandbox-acs.controller';
import { TransferAndQrController } from './transfer-and-qr.controller';
import { TransferAndQrService } from './transfer-and-qr.service';

/** Checkouts and how they are paid: by card (with the sandbox bank's 3-D Secure page), transfer and QR. */
@Module({
  imports: [BusinessesModule, KafkaClientsModule, CardTestingModule],
  controllers: [
    CheckoutsController,
    CardPaymentsController,
    TransferAndQrController,
    SandboxAcsController,
    CheckoutPaymentsConsumer,
  ],
  providers: [
    CheckoutsService,
    CheckoutsRepository,
    IdempotencyKeysRepository,
    CheckoutExpirer,
    CardPaymentsService,
    TransferAndQrService,
  ],
  exports: [CheckoutsService, CardPaymentsService, TransferAndQrService, CheckoutsRepository],
})
export class CheckoutsModule {}
