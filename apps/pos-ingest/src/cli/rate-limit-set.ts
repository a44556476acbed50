import 'reflect-metadata';

import { runCommand } from '@payments/platform-bootstrap';
import { rateLimitSet } from '@payments/platform-rate-limit';

import { Env } from '../config/env';
import { database } from '../database/data-source';

/** pos-ingest's per-business override of the terminal limit (docs/rate-limits.md). */
void runCommand('rate-limit:set', () =>
  rateLimitSet({
    envClass: Env,
    database,
    limits: ['terminal'],
    businessExists: async (dataSource, businessId) =>
      (await dataSource.query(`SELECT 1 FROM "pos_ingest"."integrators" WHERE "business_id" = $1`, [businessId]))
        .length > 0,
  }),
);
