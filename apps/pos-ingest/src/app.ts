import { AppSpec } from '@payments/platform-bootstrap';

import { AppModule } from './app.module';
import { Env } from './config/env';
import { database } from './database/data-source';
import { posRouteDocs } from './pos/pos.route';

/** How the pos-ingest is built: shared by main.ts and the integration tests. */
export const posIngestApp: AppSpec<Env> = {
  envClass: Env,
  database,
  module: (env) => AppModule.forRoot(env),
  kafkaConsumer: true,
  docs: {
    title: 'POS ingest API',
    description:
      'Point-of-sale terminals submit AES-128-ECB encrypted card transactions here. See docs/pos.md for the encryption steps.',
    paths: posRouteDocs,
  },
};
