// What every benchmark does first: dependencies, Kafka, a build, a fresh database, and the
// apps under test started as production runs them.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import {
  applyTopics,
  ensureBuild,
  ensureCardHost,
  ensureDependencies,
  ensureKafka,
  log,
  onPostgres,
  recreateDatabase,
  root,
  run,
  spawnApp,
  stopCardHost,
  stopKafka,
} from '../tools/lib.mjs';

const require = createRequire(import.meta.url);

/** The Kafka settings prepare() chose, for the bench's own clients. */
let benchEnvironment = process.env;
/**
 * Where the brokers the bench runs on keep their data, as it appears in their command line:
 * the meter charges those brokers only, not an idle one of the other kind. Null when
 * KAFKA_BROKERS names brokers of another's: every broker on the machine is charged.
 */
let measuredBrokers = null;
/** Whether prepare() put the bench on the local cluster of three. */
let onCluster = false;
/**
 * The development card host a bench's cards go to: one of its own, as fresh as its database (a
 * host that remembered an earlier database's requests would take this one's for repeats).
 */
const benchCardHost = { port: 13683, controlPort: 13684, dataDir: join(root, '.data/card-host-bench') };

/**
 * The bench's command line: `--name value` for each of `defaults`, answered as numbers (a value
 * that is not one stops the bench, naming the option), `--profile <dir>` where the bench can
 * write its apps' V8 CPU profiles, and `--cluster` where it can run on the secured cluster.
 */
export function benchOptions(defaults, { profiles = false, cluster = false } = {}) {
  const options = Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => [name, { type: 'string', default: String(value) }]),
  );
  if (profiles) options.profile = { type: 'string' };
  if (cluster) options.cluster = { type: 'boolean', default: false };
  const { values } = parseArgs({ options });
  const parsed = { profile: values.profile, cluster: values.cluster ?? false };
  for (const name of Object.keys(defaults)) {
    const number = Number(values[name]);
    if (!Number.isFinite(number) || number < 0)
      throw new Error(`--${name} takes a number of 0 or more, not ${values[name]}`);
    parsed[name] = number;
  }
  return parsed;
}

/** The local cluster's folder and client listeners, where cluster.sh puts them (KAFKA_CLUSTER_DIR, KAFKA_CLUSTER_PORT). */
const clusterDir = process.env.KAFKA_CLUSTER_DIR ?? join(root, '.data/kafka-cluster');
const clusterBrokers = () =>
  spawnSync('bash', ['deploy/kafka/cluster.sh', 'brokers'], { cwd: root, encoding: 'utf8' }).stdout.trim();

/** Whether the local cluster's first node is listening. */
function clusterUp() {
  const [host, port] = clusterBrokers().split(',')[0].split(':');
  return spawnSync('bash', ['-c', `exec 3<>/dev/tcp/${host}/${port}`], { stdio: 'ignore' }).status === 0;
}

/**
 * The local cluster of three (`npm run kafka:cluster`), started if it is not up, as its super
 * user: each app's settings for a secured cluster, TLS with SCRAM-SHA-512.
 */
function clusterSettings() {
  const users = process.env.KAFKA_USERS ?? 'admin:admin-secret';
  const [username, password] = users.split(',')[0].split(':');
  run('bash', ['deploy/kafka/cluster.sh', 'start'], { env: { ...process.env, KAFKA_USERS: users }, quiet: true });
  return {
    KAFKA_BROKERS: clusterBrokers(),
    KAFKA_TLS: 'true',
    KAFKA_TLS_CA_FILE: join(clusterDir, 'tls/ca.pem'),
    KAFKA_SASL_MECHANISM: 'scram-sha-512',
    KAFKA_SASL_USERNAME: username,
    KAFKA_SASL_PASSWORD: password,
  };
}

/** A kafkajs client with the apps' Kafka settings (brokers, TLS, SASL) from `env`. */
export function benchKafka(env, clientId, level = 'NOTHING') {
  require('../tools/runtime/register-paths.cjs');
  const { kafkaSecurity } = require('@payments/platform-kafka');
  const { Kafka, logLevel } = require('kafkajs');
  return new Kafka({
    clientId,
    brokers: env.KAFKA_BROKERS.split(','),
    ...kafkaSecurity({ ...env, KAFKA_TLS: env.KAFKA_TLS === 'true' }),
    logLevel: logLevel[level],
  });
}

/**
 * Prepares the machine and an empty database; returns the environment for the apps. With
 * `cluster`, Kafka is the secured local cluster of three instead of the single local broker.
 */
export async function prepare(database, { cluster = false } = {}) {
  ensureDependencies();
  const startedKafka = cluster ? !clusterUp() : ensureKafka();
  ensureBuild();
  await recreateDatabase(database);
  const kafkaEnv = cluster ? clusterSettings() : { KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092' };
  onCluster = cluster;
  if (cluster) measuredBrokers = `${clusterDir}/`;
  else if (!process.env.KAFKA_BROKERS) measuredBrokers = join(root, '.data/kafka/');
  benchEnvironment = { ...process.env, ...kafkaEnv };
  applyTopics(benchEnvironment);
  stopCardHost(benchCardHost);
  rmSync(benchCardHost.dataDir, { recursive: true, force: true });
  ensureCardHost(process.env, benchCardHost);
  await skipEarlierMessages();
  const env = {
    ...process.env,
    ...kafkaEnv,
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    API_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
    POS_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
    PAGE_CURSOR_KEY: randomBytes(32).toString('base64'),
    MEMBER_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    CARD_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
    CARD_DATA_KEY: randomBytes(32).toString('base64'),
    POS_REFERENCE_KEY: randomBytes(32).toString('base64'),
    CARD_NETWORK_SANDBOX_ADDRESS: `127.0.0.1:${benchCardHost.port}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // Clients connect directly, as to an app with nothing in front.
    TRUSTED_PROXIES: 'none',
    // Counted as in production (the same grant size as the defaults), and never reached.
    ...Object.fromEntries(
      ['RATE_LIMIT_PARTNER_API', 'RATE_LIMIT_HOSTED_PAGE', 'RATE_LIMIT_TERMINAL'].map((name) => [
        name,
        '100000000/60s',
      ]),
    ),
  };
  return { env, startedKafka };
}

/**
 * Moves every idle consumer group on the broker past the messages already there. The database
 * is fresh but the broker is shared: without this, a bench's apps would first work through what
 * earlier runs left (bench:pos leaves its POS transactions for card-processor), on the clock of
 * this one.
 */
async function skipEarlierMessages() {
  const kafka = benchKafka(benchEnvironment, 'bench-prepare');
  const admin = kafka.admin();
  await admin.connect();
  try {
    // The apps' own groups (<service>.<traffic class>), not the many a test run leaves behind.
    const { groups } = await admin.listGroups();
    const own = groups.map((group) => group.groupId).filter((id) => /^[a-z-]+\.(commands|events|bulk)$/.test(id));
    const { groups: described } = await admin.describeGroups(own);
    const idle = described.filter((group) => group.state === 'Empty').map((group) => group.groupId);
    await Promise.all(
      idle.map(async (groupId) => {
        const topics = (await admin.fetchOffsets({ groupId })).map(({ topic }) => topic);
        const ends = await Promise.all(topics.map((topic) => admin.fetchTopicOffsets(topic)));
        await commitAsGroup(kafka, groupId, topics, ends);
      }),
    );
  } finally {
    await admin.disconnect();
  }
}

/**
 * kafkajs's admin.setOffsets, for all of a group's topics at once: a member of the group that
 * seeks every partition to its end (which commits it) and leaves at its first fetch. One group
 * join each, instead of one per topic.
 */
async function commitAsGroup(kafka, groupId, topics, ends) {
  const consumer = kafka.consumer({ groupId });
  await consumer.connect();
  await consumer.subscribe({ topics });
  await new Promise((resolve, reject) => {
    consumer.on(consumer.events.FETCH, () => consumer.stop().then(resolve, reject));
    consumer.run({ eachBatchAutoResolve: false, eachBatch: async () => {} }).catch(reject);
    consumer.pause(topics.map((topic) => ({ topic })));
    topics.forEach((topic, index) => {
      for (const { partition, high } of ends[index]) consumer.seek({ topic, partition, offset: high });
    });
  });
  await consumer.disconnect();
}

/**
 * Starts a built app; with `cpuProfileDir`, it writes a V8 CPU profile there when it exits, and
 * with `preload`, node loads that script first (`node -r`).
 */
export function startApp(app, port, env, { cpuProfileDir, preload } = {}) {
  const options = [
    ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []),
    ...(preload ? ['-r', preload] : []),
  ];
  return spawnApp(app, { ...env, PORT: String(port), SERVICE_NAME: app }, ['ignore', 'ignore', 'inherit'], options);
}

/**
 * SIGTERM to every child, wait for them, stop the card host, empty the topics, and stop the broker (or the
 * cluster) if prepare() started it. The records a bench wrote (hundreds of thousands of POS transactions) are deleted,
 * topics and consumer groups kept: tests that read a topic from its beginning would otherwise
 * wade through them on the next run against the same local broker.
 */
export async function finish(children, startedKafka) {
  await stopApps(children);
  stopCardHost(benchCardHost);
  await deleteRecords();
  if (startedKafka && onCluster) run('bash', ['deploy/kafka/cluster.sh', 'stop'], { quiet: true });
  else if (startedKafka) stopKafka();
}

/** SIGTERM to every child; resolves once all have exited. */
export async function stopApps(children) {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve))),
    ),
  );
}

async function deleteRecords() {
  const admin = benchKafka(benchEnvironment, 'bench-finish').admin();
  await admin.connect();
  try {
    for (const topic of (await admin.listTopics()).filter((name) => !name.startsWith('__'))) {
      // Up to the end of each partition. A topic a test left without a leader is left as it is.
      await admin
        .fetchTopicOffsets(topic)
        .then((offsets) =>
          admin.deleteTopicRecords({
            topic,
            partitions: offsets.map(({ partition, high }) => ({ partition, offset: high })),
          }),
        )
        .catch(() => undefined);
    }
  } finally {
    await admin.disconnect();
  }
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `npm run partner:create` against the bench database; returns its JSON (keys included). It does
 * not wait for onboarding: a bench runs only some of the apps, and waits for what it needs.
 */
export function createPartner(env, name, extraArgs = []) {
  const created = spawnSync(
    process.execPath,
    [
      '-r',
      './tools/runtime/register-paths.cjs',
      'dist/apps/checkout-gateway/src/cli/partner-create.js',
      '--name',
      name,
      ...extraArgs,
      '--json',
      '--wait-seconds',
      '0',
    ],
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

function isMeasuredBroker(commandLine) {
  return commandLine.includes('kafka.Kafka') && (measuredBrokers === null || commandLine.includes(measuredBrokers));
}

/**
 * Charges every process on the machine that works for an operation: the named apps, every
 * PostgreSQL backend, the Kafka broker, the card host and the load generator (this process, plus any helper
 * process named as one, such as pgbench). Take a snapshot before and after a round; `used`
 * gives each part's CPU seconds in between, a process started meanwhile counted whole.
 */
export class CpuMeter {
  /** @param {Record<string, () => number | undefined>} processes name → pid (looked up at each snapshot) */
  constructor(processes) {
    this.processes = processes;
  }

  snapshot() {
    const own = process.cpuUsage();
    const named = Object.fromEntries(
      Object.entries(this.processes).map(([name, pid]) => [name, pid() ? processCpuSeconds(pid()) : 0]),
    );
    const postgres = new Map();
    const broker = new Map();
    const cardHost = new Map();
    for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
      if (readProcFile(pid, 'comm').trim() === 'postgres') postgres.set(pid, processCpuSeconds(pid));
      else {
        const commandLine = readProcFile(pid, 'cmdline');
        if (isMeasuredBroker(commandLine)) broker.set(pid, processCpuSeconds(pid));
        else if (commandLine.includes('ng.payments.cardhost.CardHost')) cardHost.set(pid, processCpuSeconds(pid));
      }
    }
    return { named, postgres, broker, cardHost, loadGenerator: (own.user + own.system) / 1e6 };
  }

  used(before, after) {
    const since = (processes, earlier) =>
      [...processes].reduce((sum, [pid, seconds]) => sum + seconds - (earlier.get(pid) ?? 0), 0);
    const named = Object.fromEntries(
      Object.keys(after.named).map((name) => [name, after.named[name] - (before.named[name] ?? 0)]),
    );
    return {
      ...named,
      PostgreSQL: since(after.postgres, before.postgres),
      'Kafka broker': since(after.broker, before.broker),
      'card host': since(after.cardHost, before.cardHost),
      'load generator': after.loadGenerator - before.loadGenerator,
    };
  }
}

/**
 * Readies the machine for a round: the bench database vacuumed and its statistics taken, then
 * every measured process quiet, so that the vacuum's own work lands in no round.
 */
export async function beforeRound(meter, databaseUrl) {
  await vacuumAnalyze(databaseUrl);
  await quiet(meter);
}

/**
 * Vacuums the bench database and takes its statistics, as autovacuum keeps a production
 * server's: without them the planner plans against tables it has never measured, and a plan
 * that only statistics bring out (a queue measured empty, then full) would go unseen.
 */
async function vacuumAnalyze(databaseUrl) {
  await onPostgres((client) => client.query('VACUUM ANALYZE'), databaseUrl);
}

/**
 * Waits until every measured process together uses less than `cores` of CPU over half a
 * second (at most `maxMs`): before a round, so that it does not pay for work the one before it
 * queued (outbox events, the transaction history, a bulk stream catching up); after it, so
 * that it does pay for its own.
 */
export async function quiet(meter, { cores = 0.25, maxMs = 15_000 } = {}) {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const before = meter.snapshot();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = Object.values(meter.used(before, meter.snapshot())).reduce((sum, seconds) => sum + seconds, 0);
    if (used < cores * 0.5) return;
  }
}

export const median = (numbers) => numbers.slice().sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

/** CPU per operation in µs for each part, from seconds used and operations done. */
export function perOperation(used, operations) {
  return Object.fromEntries(Object.entries(used).map(([part, seconds]) => [part, (seconds * 1e6) / operations]));
}

/**
 * Prints the CPU table: one row per measured thing, the µs each part spent per operation (the
 * median over rounds), their total, and the rate the machine's cores would allow if busy.
 * @param {{ name: string, cpu: Record<string, number>[] }[]} rows cpu: one perOperation() per round
 * @returns {number[]} each row's total µs per operation
 */
export function printCpuTable(rows) {
  const parts = [...new Set(rows.flatMap((row) => row.cpu.flatMap((round) => Object.keys(round))))];
  const cores = availableParallelism();
  console.log(
    `\nCPU per operation in µs (median of the rounds), and the rate it allows with all ${cores} cores busy.\n`,
  );
  console.log(
    `| operation | ${parts.join(' | ')} | total | ceiling/s |\n|---|${parts.map(() => '---|').join('')}---|---|`,
  );
  return rows.map(({ name, cpu }) => {
    const cells = parts.map((part) => median(cpu.map((round) => round[part] ?? 0)));
    const total = cells.reduce((sum, value) => sum + value, 0);
    console.log(
      `| ${name} | ${cells.map((value) => value.toFixed(0)).join(' | ')} | ${total.toFixed(0)} | ${((cores * 1e6) / total).toFixed(0)} |`,
    );
    return total;
  });
}

/** Prints a markdown table from a header row and rows of cells. */
export function printTable(header, rows) {
  console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => '---|').join('')}`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

/** The pids of processes whose command line contains `needle` (helpers the bench spawned). */
export function pidsMatching(needle) {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => readProcFile(pid, 'cmdline').includes(needle));
}

/**
 * Waits until the gateway serves the partner's settlement wallet: outlet-service knows the
 * partner and answers the gateway's commands.
 */
export async function untilPartnerServed(origin, headers) {
  while ((await fetch(`${origin}/wallets/settlement`, { headers })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 200));
}

/** A checkout the bench pays by card: the body of `POST /payin/charge/requests`. */
export const checkoutBody = () =>
  JSON.stringify({ amount: '150000', accountName: 'Bench Store', paymentMethod: ['card'] });

/** The sandbox card that asks for no verification step: the body of a card payment. */
export const noVerificationCard = JSON.stringify({
  cardNumber: '5060990000000000019',
  expiryDate: '12/30',
  cvv: '123',
});

/**
 * Creates `count` checkouts through the gateway from 16 clients and answers their references: paid
 * in a later round, they let it measure payments only.
 */
export async function createCheckouts(origin, headers, count) {
  const references = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (started < count) {
        started += 1;
        const response = await fetch(`${origin}/payin/charge/requests`, {
          method: 'POST',
          headers,
          body: checkoutBody(),
        });
        references.push((await response.json()).data.reference);
      }
    }),
  );
  return references;
}

/**
 * `connections` clients sending as fast as they are answered for `duration` s; `path` and `body`
 * give each request its own.
 */
export async function closedLoop({ origin, connections, path, method = 'POST', headers, body, duration }) {
  const result = await autocannon({
    url: `${origin}${path()}`,
    connections,
    duration,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, method, path: path(), body: body?.() }) }],
  });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

const pgbenchDatabase = 'payments_bench_pgbench';

/** Runs pgbench against its own database; `done` resolves with its output. */
function pgbench(args) {
  const child = spawn('pgbench', ['-h', '127.0.0.1', '-U', 'postgres', ...args, pgbenchDatabase], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const done = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`pgbench exited with ${code}: ${output}`)),
    );
  });
  return { child, done };
}

/** pgbench's database at scale 10: the bank every money bench is measured against. */
export async function preparePgbench() {
  log('initialising pgbench (scale 10)');
  await recreateDatabase(pgbenchDatabase);
  await pgbench(['-i', '-s', '10', '-q']).done;
}

/**
 * One round of pgbench's TPC-B-like script (16 clients), after the apps finished what the last
 * round left them: transactions a second, latency, and CPU per transaction of PostgreSQL, the
 * broker and pgbench itself (the load generator, as the apps' rounds count theirs).
 * @param {Record<string, { pid: number }>} apps the bench's app processes
 */
export async function pgbenchRound(duration, apps) {
  await quiet(new CpuMeter(Object.fromEntries(Object.entries(apps).map(([name, child]) => [name, () => child.pid]))));
  const run = pgbench(['-c', '16', '-j', '2', '-T', String(duration)]);
  const meter = new CpuMeter({ pgbench: () => run.child.pid });
  const before = meter.snapshot();
  // Read while it runs: once pgbench exits, /proc forgets it and the server backends it used.
  let last = meter.snapshot();
  const sampler = setInterval(() => (last = meter.snapshot()), 200);
  const output = await run.done;
  clearInterval(sampler);
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1]);
  const { pgbench: generator, ...used } = meter.used(before, last);
  used['load generator'] = generator;
  return {
    tps: Number(/tps = ([\d.]+)/.exec(output)?.[1]),
    latencyMs: Number(/latency average = ([\d.]+)/.exec(output)?.[1]),
    cpu: perOperation(used, transactions),
  };
}

/**
 * The machine's speed moves through the day; the CPU of a bank transaction (one pgbench
 * transaction, measured in the same run) does not move with it as much. Prints an operation's
 * CPU as a multiple of it, against its target.
 */
export function printCostInBankTransactions(name, operationMicros, bankMicros, target) {
  const multiple = operationMicros / bankMicros;
  console.log(
    `\n${name}: ${operationMicros.toFixed(0)} µs of CPU = ${multiple.toFixed(1)}× a pgbench transaction (${bankMicros.toFixed(0)} µs); target at most ${target}×`,
  );
}
