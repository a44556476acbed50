import { AppSpec } from '@payments/platform-bootstrap';

import { BusinessesModule } from './businesses/businesses.module';
import { CommandsModule } from './commands/commands.module';
import { Env } from './config/env';
import { database } from './database/data-source';
import { PosModule } from './pos/pos.module';

/** How the outlet-service is built: shared by main.ts and the integration tests. */
export const outletServiceApp: AppSpec<Env> = {
  envClass: Env,
  database,
  features: [BusinessesModule, CommandsModule, PosModule],
};
