import { AppDatabase } from '@payments/platform-database';
import { outboxEntities } from '@payments/platform-outbox';

import { Business } from '../businesses/business.entity';
import { BusinessKey } from '../businesses/business-key.entity';
import { migrations } from './migrations';
import { tableGrants } from './table-grants';

export const database: AppDatabase = {
  schema: 'gateway',
  entities: [...outboxEntities, Business, BusinessKey],
  migrations,
  grants: tableGrants,
};
