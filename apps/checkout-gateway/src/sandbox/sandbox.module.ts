import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { CheckoutsModule } from '../checkouts/checkouts.module';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { SandboxController } from './sandbox.controller';
import { SandboxRailService } from './sandbox-rail.service';

/** The sandbox bank rail: test keys credit virtual accounts and checkout accounts with it. */
@Module({
  imports: [BusinessesModule, CheckoutsModule, KafkaClientsModule],
  providers: [SandboxRailService],
  controllers: [SandboxController],
})
export class SandboxModule {}
