import { Module } from '@nestjs/common';

import { EndpointsModule } from '../endpoints/endpoints.module';
import { WebhookSender } from '../sending/webhook-sender';
import { AttemptRecorder } from './attempt-recorder';
import { AttemptsRepository } from './attempts.repository';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryMetrics } from './delivery-metrics';
import { DeliveryWorker } from './delivery-worker';
import { PartnerEventsConsumer } from './partner-events.consumer';

/** Partner events turned into deliveries, sent, retried and recorded. */
@Module({
  imports: [EndpointsModule],
  controllers: [PartnerEventsConsumer],
  providers: [
    DeliveriesRepository,
    DeliveryWorker,
    AttemptRecorder,
    AttemptsRepository,
    WebhookSender,
    DeliveryMetrics,
  ],
  exports: [DeliveriesRepository, DeliveryWorker, WebhookSender],
})
export class DeliveriesModule {}
