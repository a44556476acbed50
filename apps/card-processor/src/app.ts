import { AppSpec } from '@payments/platform-bootstrap';

import { ChargesModule } from './charges/charges.module';
import { Env } from './config/env';
import { database } from './database/data-source';
import { PosModule } from './pos/pos.module';
import { RefundsModule } from './refunds/refunds.module';

/** How the card-processor is built: shared by main.ts and the integration tests. */
export const cardProcessorApp: AppSpec<Env> = {
  envClass: Env,
  database,
  features: [ChargesModule, PosModule, RefundsModule],
};
