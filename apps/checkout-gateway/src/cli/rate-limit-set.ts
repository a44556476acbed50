import 'reflect-metadata';

import { runCommand } from '@payments/platform-bootstrap';
import { rateLimitSet } from '@payments/platform-rate-limit';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { Env } from '../config/env';
import { database } from '../database/data-source';

/** The gateway's per-business override of the partner API's limit (docs/rate-limits.md). */
void runCommand('rate-limit:set', () =>
  rateLimitSet({
    envClass: Env,
    database,
    limits: ['partner-api'],
    businessExists: async (dataSource, businessId) =>
      (await new BusinessesRepository(dataSource).find(businessId)) !== null,
  }),
);
