import { AppDatabase } from '@payments/platform-database';
import { outboxEntities } from '@payments/platform-outbox';

import { migrations } from './migrations';
import { tableGrants } from './table-grants';

export const database: AppDatabase = {
  schema: 'webhooks',
  entities: [...outboxEntities],
  migrations,
  grants: tableGrants,
};
