import { AppSpec } from '@payments/platform-bootstrap';

import { BusinessesModule } from './businesses/businesses.module';
import { Env } from './config/env';
import { database } from './database/data-source';
import { PosModule } from './pos/pos.module';
import { posRouteDocs } from './pos/pos.route';

/** How the pos-ingest is built: shared by main.ts and the integration tests. */
export const posIngestApp: AppSpec<Env> = {
  envClass: Env,
  database,
  features: [BusinessesModule, PosModule],
  outboxRelay: false,
  docs: {
    title: 'POS ingest API',
    description:
      'Point-of-sale terminals submit AES-128-ECB encrypted card transactions here. See docs/pos.md for the encryption steps.',
    paths: posRouteDocs,
  },
};
