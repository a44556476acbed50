import { Module } from '@nestjs/common';

import { TerminalsModule } from '../terminals/terminals.module';
import { BusinessEventsConsumer } from './business-events.consumer';

/** Businesses onboarded from business events, each with its sealed POS key. */
@Module({
  imports: [TerminalsModule],
  controllers: [BusinessEventsConsumer],
})
export class BusinessesModule {}
