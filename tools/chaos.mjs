// npm run chaos [-- --minutes 5] [-- --cluster]: the chaos run (apps/platform-tests/src/chaos/)
// for a set time. The platform runs on a PostgreSQL server and Kafka of its own, started for the
// run, so the faults it injects never touch the shared ones. Prints what was injected, the
// answers, the promised outcomes and the audit's violations by rule. `--minutes 1` runs one
// fault of each kind; `--cluster` runs on a secured cluster of three brokers with two instances
// of every app, and injects the cluster's faults (a rolling restart, a killed leader, instances
// killed, added and removed).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { ensureBuild, ensureDependencies, log, root } from './lib.mjs';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '5' }, cluster: { type: 'boolean', default: false } },
});
const seconds = Math.round(Number(values.minutes) * 60);
if (!(seconds >= 30)) {
  log('--minutes must be at least 0.5');
  process.exit(2);
}

ensureDependencies();
ensureBuild();
log(`chaos run for ${seconds} s${values.cluster ? ' on a cluster of three brokers' : ''}`);
const env = { ...process.env, TZ: 'UTC', CHAOS_SECONDS: String(seconds), CHAOS_CLUSTER: String(values.cluster) };
const { status } = spawnSync(
  join(root, 'node_modules/.bin/jest'),
  ['--selectProjects', 'e2e', '--testPathPattern', 'chaos/'],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(status ?? 1);
