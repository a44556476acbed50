import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { CheckoutsModule } from '../checkouts/checkouts.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { SandboxController } from './sandbox.controller';

/** The sandbox bank rail: test keys credit virtual accounts and checkout accounts with it. */
@Module({
  imports: [BusinessesModule, CheckoutsModule, KafkaClientsModule],
  controllers: [SandboxController],
})
export class SandboxModule {}
