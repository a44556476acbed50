import { AppSpec } from '@payments/platform-bootstrap';

import { AppModule } from './app.module';
import { Env } from './config/env';
import { database } from './database/data-source';

/** How the outlet-service is built: shared by main.ts and the integration tests. */
export const outletServiceApp: AppSpec<Env> = {
  envClass: Env,
  database,
  module: (env) => AppModule.forRoot(env),
  kafkaConsumer: true,
};
