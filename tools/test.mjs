// npm test: installs what is missing, starts Kafka and the development card host, prepares a fresh test database, builds,
// then runs typecheck, lint and the unit, integration and end-to-end suites. The last line
// is `N passed, N failed` over all of them; the exit code is non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import {
  applyTopics,
  dataDir,
  ensureBuild,
  ensureCardHost,
  ensureDependencies,
  ensureKafka,
  ensureSystemPackages,
  localPostgres,
  localSecrets,
  log,
  root,
  stopCardHost,
  stopKafka,
} from './lib.mjs';

// TEST_DATABASE_URL, or the payments_test database on the machine's PostgreSQL (an embedded one
// when none answers on 127.0.0.1:5432).
let testDatabaseUrl = process.env.TEST_DATABASE_URL;
const results = { passed: 0, failed: 0 };

function step(name, command, args) {
  log(name);
  const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (status === 0) results.passed += 1;
  else {
    results.failed += 1;
    log(`${name} failed`);
  }
}

/** A fresh database per run, so no test depends on what an earlier run left behind. */
async function recreateTestDatabase() {
  const url = new URL(testDatabaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** Runs jest, then adds its JSON report to the totals: passed tests, and failed tests or suites. */
function runJest(name, args) {
  const report = join(dataDir, `jest-${name.split(' ')[0]}.json`);
  rmSync(report, { force: true });
  log(name);
  spawnSync(
    join(root, 'node_modules/.bin/jest'),
    ['--json', `--outputFile=${report}`, ...args, ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    },
  );
  if (!existsSync(report)) {
    results.failed += 1;
    log(`${name}: jest wrote no report`);
    return;
  }
  const jest = JSON.parse(readFileSync(report, 'utf8'));
  results.passed += jest.numPassedTests;
  // A suite that failed to load has no failed test of its own: count it once.
  results.failed +=
    jest.numFailedTests +
    jest.testResults.filter((suite) => suite.status === 'failed' && suite.assertionResults.length === 0).length;
}

let exitCode = 1;
let startedKafka = false;
let startedCardHost = false;
const testCardHost = { port: 13583, controlPort: 13584, dataDir: join(dataDir, 'card-host-test') };
let postgres;
try {
  // Dependencies are installed here, so this file imports only Node built-ins at the top.
  ensureDependencies();
  ensureSystemPackages();
  startedKafka = ensureKafka();
  // A host of the run's own, as fresh as its database: a host that remembered another database's
  // requests would take this run's (which reuse their RRNs) for repeats.
  stopCardHost(testCardHost);
  rmSync(testCardHost.dataDir, { recursive: true, force: true });
  // The apps translate PIN blocks to the zone PIN key the host opens them with: one key for both.
  process.env.CARD_NETWORK_SANDBOX_ZONE_PIN_KEY ??= localSecrets().CARD_NETWORK_SANDBOX_ZONE_PIN_KEY;
  startedCardHost = ensureCardHost(process.env, testCardHost);
  process.env.CARD_NETWORK_SANDBOX_ADDRESS = `127.0.0.1:${testCardHost.port}`;
  if (!testDatabaseUrl) {
    postgres = await localPostgres();
    testDatabaseUrl = `${postgres.url}/payments_test`;
  }
  await recreateTestDatabase();
  process.env.DATABASE_URL = testDatabaseUrl;
  process.env.KAFKA_BROKERS ??= '127.0.0.1:9092';
  process.env.TZ = 'UTC';
  ensureBuild();
  applyTopics();
  step('typecheck', join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']);
  step('typecheck of the hosted page script', join(root, 'node_modules/.bin/tsc'), [
    '-p',
    'apps/checkout-gateway/src/hosted-page/public/tsconfig.json',
  ]);
  // The module-boundary rule reads Nx's project graph; computing it first makes the rule run.
  spawnSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  step('lint', join(root, 'node_modules/.bin/eslint'), ['--max-warnings', '0', 'apps', 'libs', 'tools', 'bench']);
  step('formatting', join(root, 'node_modules/.bin/prettier'), ['--check', '--log-level', 'warn', '.']);

  mkdirSync(dataDir, { recursive: true });
  // Unit and integration suites share the machine's two cores; end-to-end suites run one at a
  // time, since each starts its own app processes that join the same Kafka consumer groups.
  runJest('unit and integration suites', ['--selectProjects', 'unit', 'integration', '--maxWorkers=2']);
  runJest('end-to-end suites', ['--selectProjects', 'e2e', '--runInBand']);
  exitCode = results.failed === 0 && results.passed > 0 ? 0 : 1;
} catch (error) {
  log(`setup failed: ${error.message}`);
  results.failed += 1;
} finally {
  if (startedKafka) stopKafka(); // a broker it found running is left as it was
  if (startedCardHost) stopCardHost(testCardHost);
  await postgres?.stop();
}
console.log(`${results.passed} passed, ${results.failed} failed`);
process.exit(exitCode);
