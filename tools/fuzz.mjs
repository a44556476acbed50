// npm run fuzz [-- --runs 10000 --seed <n>]: the HTTP fuzz of every route of the gateway, the
// hosted page's session routes and pos-ingest (apps/platform-tests/src/http-fuzz.e2e-spec.ts),
// at full size, against a fresh database. `npm test` runs the same suite with 2,000 requests.
// A failure prints its seed; `--seed` replays it, and the failing request is kept in
// .data/http-fuzz-failure.json.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import {
  applyTopics,
  ensureBuild,
  ensureDependencies,
  ensureKafka,
  log,
  recreateDatabase,
  root,
  stopKafka,
} from './lib.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10000' }, seed: { type: 'string' } } });
const database = 'payments_fuzz';

ensureDependencies();
const startedKafka = ensureKafka();
ensureBuild();
applyTopics();
await recreateDatabase(database);

log(`fuzzing with ${values.runs} requests`);
const env = {
  ...process.env,
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  TZ: 'UTC',
  FUZZ_RUNS: values.runs,
  ...(values.seed ? { FUZZ_SEED: values.seed } : {}),
};
const { status } = spawnSync(
  join(root, 'node_modules/.bin/jest'),
  ['--selectProjects', 'e2e', '--testPathPattern', 'http-fuzz'],
  { cwd: root, env, stdio: 'inherit' },
);
if (startedKafka && process.env.CI) stopKafka();
process.exit(status ?? 1);
