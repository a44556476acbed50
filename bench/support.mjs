// What every benchmark does first: dependencies, Kafka, a build, a fresh database, and the
// apps under test started as production runs them.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** User + system CPU seconds a process has used, from /proc (Linux); 0 once it is gone. */
function processCpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return 0;
  }
}

function readProcFile(pid, name) {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * CPU seconds used so far by the server under test, PostgreSQL (every backend), the Kafka
 * broker and this process (the load generator), so a round can be charged per request.
 */
export function cpuSnapshot(serverPid) {
  const own = process.cpuUsage();
  const snapshot = { server: processCpuSeconds(serverPid), postgres: new Map(), broker: new Map(), loadGenerator: (own.user + own.system) / 1e6 };
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    if (readProcFile(pid, 'comm').trim() === 'postgres') snapshot.postgres.set(pid, processCpuSeconds(pid));
    else if (readProcFile(pid, 'cmdline').includes('kafka.Kafka')) snapshot.broker.set(pid, processCpuSeconds(pid));
  }
  return snapshot;
}

/** CPU seconds each part used between two snapshots; a process started meanwhile counts whole. */
export function cpuUsedBetween(before, after) {
  const since = (processes, earlier) => [...processes].reduce((sum, [pid, seconds]) => sum + seconds - (earlier.get(pid) ?? 0), 0);
  return {
    server: after.server - before.server,
    postgres: since(after.postgres, before.postgres),
    broker: since(after.broker, before.broker),
    loadGenerator: after.loadGenerator - before.loadGenerator,
  };
}
