// The Nx `test` target: one project's suites, with the setup `npm test` does for all of them.
//   node tools/project-test.mjs <projectRoot>
// Unit and integration suites under the project's root; apps/platform-tests also runs its
// end-to-end suites, against the apps its `test` target has built. The broker is started when
// none runs, and suites use TEST_DATABASE_URL (default: the payments_test database).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { applyTopics, ensureBuild, ensureDatabase, ensureDependencies, leaseKafka, root } from './lib.mjs';

const projectRoot = process.argv[2];
if (!projectRoot) {
  console.error('usage: node tools/project-test.mjs <projectRoot>');
  process.exit(2);
}
ensureDependencies();
// The broker deploy/kafka/kafka.sh runs on KAFKA_PORT (9092 by default), unless KAFKA_BROKERS names another.
const brokers = process.env.KAFKA_BROKERS ?? `127.0.0.1:${process.env.KAFKA_PORT ?? 9092}`;
const releaseKafka = leaseKafka();
let status = 1;
try {
  // The apps create no topics: the suites' broker gets them as a deployment does (needs the build).
  ensureBuild();
  applyTopics({ ...process.env, KAFKA_BROKERS: brokers });
  const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/payments_test';
  await ensureDatabase(new URL(databaseUrl).pathname.slice(1));
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: brokers,
    TZ: 'UTC',
  };
  const suites = projectRoot === 'apps/platform-tests' ? ['unit', 'integration', 'e2e'] : ['unit', 'integration'];
  ({ status } = spawnSync(
    join(root, 'node_modules/.bin/jest'),
    [
      '--selectProjects',
      ...suites,
      '--runInBand',
      '--passWithNoTests',
      '--testPathPattern',
      `^${join(root, projectRoot)}/`,
    ],
    { cwd: root, env, stdio: 'inherit' },
  ));
} finally {
  // A broker these commands started is stopped by the last of them; one found running is left as it was.
  releaseKafka();
}
process.exit(status ?? 1);
