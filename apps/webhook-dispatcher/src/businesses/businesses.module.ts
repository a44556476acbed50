import { Module } from '@nestjs/common';

import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { BusinessEventsConsumer } from './business-events.consumer';

/** Businesses onboarded from business events, each with the endpoint it was created with. */
@Module({
  imports: [EndpointsModule, DeliveriesModule],
  controllers: [BusinessEventsConsumer],
})
export class BusinessesModule {}
