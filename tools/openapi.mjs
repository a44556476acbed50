// npm run openapi: rewrites docs/openapi.json, the typed client (clients/typescript) and the
// Postman collection (docs/postman) from the apps as they are now, by running the contract
// suite in update mode; review the diff and commit it. npm test fails while they differ from
// what the apps serve.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { applyTopics, ensureBuild, ensureDatabase, ensureDependencies, ensureKafka, root } from './lib.mjs';

ensureDependencies();
ensureKafka();
await ensureDatabase('payments_test');
ensureBuild();
applyTopics();
const { status } = spawnSync(
  join(root, 'node_modules/.bin/jest'),
  ['--selectProjects', 'e2e', '--runInBand', '--testPathPattern', 'openapi.e2e-spec'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      OPENAPI_UPDATE: '1',
      DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/payments_test',
      KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
      TZ: 'UTC',
    },
  },
);
process.exit(status ?? 1);
