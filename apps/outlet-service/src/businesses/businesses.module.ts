import { Module } from '@nestjs/common';

import { MoneyModule } from '../money/money.module';
import { AwaitingOnboarding } from './awaiting-onboarding';
import { AwaitingOnboardingRepository } from './awaiting-onboarding.repository';
import { BusinessEventsConsumer } from './business-events.consumer';
import { BusinessesRepository } from './businesses.repository';

/** The businesses outlet-service knows, onboarded from business events, and the money events that wait for them. */
@Module({
  imports: [MoneyModule],
  controllers: [BusinessEventsConsumer],
  providers: [BusinessesRepository, AwaitingOnboarding, AwaitingOnboardingRepository],
  exports: [BusinessesRepository, AwaitingOnboarding],
})
export class BusinessesModule {}
