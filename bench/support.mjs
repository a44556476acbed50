// What every benchmark does first: dependencies, Kafka, a build, a fresh database, and the
// apps under test started as production runs them.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ensureBuild, ensureDependencies, ensureKafka, root, stopKafka } from '../tools/lib.mjs';

/** Prepares the machine and an empty database; returns the environment for the apps. */
export async function prepare(database) {
  ensureDependencies();
  const startedKafka = ensureKafka();
  ensureBuild();
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const env = {
    ...process.env,
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CARD_DATA_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  return { env, startedKafka, pg };
}

/** Starts a built app; with `cpuProfileDir`, it writes a V8 CPU profile there when it exits. */
export function startApp(app, port, env, { cpuProfileDir } = {}) {
  const profiling = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  return spawn(process.execPath, [...profiling, '-r', './tools/runtime/register-paths.cjs', `dist/apps/${app}/src/main.js`], {
    cwd: root,
    env: { ...env, PORT: String(port), SERVICE_NAME: app },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** SIGTERM to every child, wait for them, and stop the broker if prepare() started it. */
export async function finish(children, startedKafka) {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)))));
  if (startedKafka) stopKafka();
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `npm run partner:create` against the bench database; returns its JSON (keys included). */
export function createPartner(env, name, extraArgs = []) {
  const created = spawnSync(
    process.execPath,
    ['-r', './tools/runtime/register-paths.cjs', 'dist/apps/checkout-gateway/src/cli/partner-create.js', '--name', name, ...extraArgs, '--json'],
    { cwd: root, env, encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`partner:create failed: ${created.stderr}`);
  return JSON.parse(created.stdout);
}
