import { AppSpec } from '@payments/platform-bootstrap';

import { AppModule } from './app.module';
import { Env } from './config/env';
import { database } from './database/data-source';

/** How the gateway is built: shared by main.ts and the integration tests. */
export const gatewayApp: AppSpec<Env> = {
  envClass: Env,
  database,
  module: (env) => AppModule.forRoot(env),
  kafkaConsumer: true,

  docs: {
    title: 'Payments API',
    description:
      'Hosted checkout, card payments, outlets and wallets for Nigerian merchants. Every response is an envelope ' +
      '{status, statusCode, message, data}; errors carry a stable data.code. Amounts are kobo, as strings.',
  },
};
