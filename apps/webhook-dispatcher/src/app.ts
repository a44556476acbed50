import { AppSpec } from '@payments/platform-bootstrap';

import { BusinessesModule } from './businesses/businesses.module';
import { CommandsModule } from './commands/commands.module';
import { Env } from './config/env';
import { database } from './database/data-source';
import { DeliveriesModule } from './deliveries/deliveries.module';

/** How the webhook-dispatcher is built: shared by main.ts and the integration tests. */
export const webhookDispatcherApp: AppSpec<Env> = {
  envClass: Env,
  database,
  features: [BusinessesModule, DeliveriesModule, CommandsModule],
  outboxRelay: false,
};
