// What the fabric itself costs: an HTTP request answered through a Kafka request/reply in which
// no one does any work. No authentication, validation, database, logging or tracing; kafkajs
// used as the platform uses it, with the platform's pieces from dist/ (acks=all, the apps' own
// batching producer with its partitioner, keyless commands, the consumer settings,
// offsets committed once a second by PeriodicCommits, replies on one partition the requester reads).
//
//   npm run bench:floor [-- --seconds 20 --rounds 3 --connections 16 --warm-up 10]
//
// Starts Kafka (if needed) and two processes of this script: a front (Fastify, a route that
// sends a command and answers with its reply) and a back (a consumer that replies to every
// command). Prints the rate, the latency and the CPU every process spent per request, next to
// the same route answered without Kafka. The difference between this floor and an operation's
// CPU is what the platform's own work costs on top of the stack's.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';
import Fastify from 'fastify';

import { ensureBuild, ensureDependencies, ensureKafka, log } from '../tools/lib.mjs';
import { benchOptions, CpuMeter, finish, median, perOperation, printCpuTable, printTable, quiet } from './support.mjs';

const commands = 'bench.floor.commands.v1';
const replies = 'bench.floor.replies.v1';
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const [role, port] = process.argv.slice(2);

/** The platform's Kafka library as built in dist/, so that the floor uses what the apps use. */
function platformKafka() {
  const require = createRequire(import.meta.url);
  require('../tools/runtime/register-paths.cjs');
  return require('@payments/platform-kafka');
}

function kafka() {
  const clientId = `bench-floor-${role === 'front' || role === 'back' ? role : 'admin'}`;
  return platformKafka().createKafkaClient({ brokers, clientId });
}

/** A consumer with the platform's settings, its offsets committed once a second (PeriodicCommits). */
async function consumerOf(groupId, topic, eachBatch) {
  const { consumerSettings, PeriodicCommits } = platformKafka();
  const consumer = kafka().consumer({ groupId, ...consumerSettings });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: false });
  const commits = new PeriodicCommits(consumer);
  commits.start();
  await consumer.run({
    autoCommit: false,
    eachBatch: async (payload) => {
      commits.track(payload);
      await eachBatch(payload.batch);
    },
  });
}

/** The apps' own producer (KafkaProducer: batching, the producer linger, the sticky partitioner). */
function producer() {
  const { KafkaProducer } = platformKafka();
  const lingerMs = Number(process.env.KAFKA_PRODUCER_LINGER_MS ?? 1);
  const kafkaProducer = new KafkaProducer(kafka(), { KAFKA_PRODUCER_LINGER_MS: lingerMs });
  return (topic, message) => kafkaProducer.send(topic, message);
}

/** The back: answers every command on the partition its requester named. */
async function back() {
  const send = producer();
  await consumerOf('bench-floor.commands', commands, (batch) =>
    Promise.all(
      batch.messages.map((message) =>
        send(replies, { value: '{"ok":true}', partition: 0, headers: { correlation: message.headers.correlation } }),
      ),
    ),
  );
  process.stdout.write('ready\n');
}

/** The front: a route that sends a command and answers with its reply. */
async function front(port) {
  const send = producer();
  const waiting = new Map();
  await consumerOf(`bench-floor.replies.${randomBytes(4).toString('hex')}`, replies, async (batch) => {
    for (const message of batch.messages) {
      const correlation = message.headers.correlation.toString();
      waiting.get(correlation)?.(JSON.parse(message.value.toString()));
      waiting.delete(correlation);
    }
  });
  let sequence = 0;
  const app = Fastify({ logger: false });
  app.post('/floor', async (request) => {
    const correlation = String(++sequence);
    const reply = new Promise((resolve) => waiting.set(correlation, resolve));
    await send(commands, { value: JSON.stringify(request.body), headers: { correlation } });
    return { status: true, statusCode: 200, message: 'done', data: await reply };
  });
  app.post('/bare', async (request) => ({ status: true, statusCode: 200, message: 'done', data: request.body }));
  await app.listen({ port, host: '127.0.0.1' });
  // A first command through, so that the rounds start with every consumer joined.
  await waitForFirstReply(port);
  process.stdout.write('ready\n');
}

async function waitForFirstReply(port) {
  for (;;) {
    const answered = await Promise.race([
      fetch(`http://127.0.0.1:${port}/floor`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }).then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 2000)),
    ]);
    if (answered) return;
  }
}

async function createBenchTopics() {
  const admin = kafka().admin();
  await admin.connect();
  await platformKafka().applyTopics(admin, [
    { name: commands, partitions: 6 },
    { name: replies, partitions: 1 },
  ]);
  await admin.disconnect();
}

function startRole(role, port) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), role, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
  return { child, ready };
}

async function bench() {
  const {
    seconds,
    rounds,
    connections,
    'warm-up': warmUp,
  } = benchOptions({
    seconds: 20,
    rounds: 3,
    connections: 16,
    'warm-up': 10,
  });
  ensureDependencies();
  const startedKafka = ensureKafka();
  ensureBuild();
  await createBenchTopics();
  const port = 14290;
  const back = startRole('back', 0);
  await back.ready;
  const front = startRole('front', port);
  await front.ready;
  const processes = { front: () => front.child.pid, back: () => back.child.pid };
  const load = (path, duration) =>
    autocannon({
      url: `http://127.0.0.1:${port}${path}`,
      method: 'POST',
      connections,
      duration,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1000, reference: 'floor' }),
    });
  log(`warming up for ${warmUp} s`);
  await load('/floor', warmUp);
  const rows = { '/floor': [], '/bare': [] };
  for (let round = 1; round <= rounds; round++) {
    for (const path of Object.keys(rows)) {
      log(`round ${round}/${rounds}: ${path}, ${connections} clients, ${seconds} s`);
      const meter = new CpuMeter(processes);
      await quiet(meter);
      const before = meter.snapshot();
      const result = await load(path, seconds);
      await quiet(meter);
      const done = result.requests.total;
      rows[path].push({
        rate: done / seconds,
        result,
        cpu: perOperation(meter.used(before, meter.snapshot()), done),
      });
    }
  }
  const names = { '/floor': 'request/reply over Kafka, no work', '/bare': 'the same route answered at once' };
  printTable(
    ['operation', 'per second', 'p50 ms', 'p99 ms', 'non-2xx'],
    Object.entries(rows).map(([path, runs]) => {
      const rates = runs.map((run) => run.rate);
      const middle = runs.find((run) => run.rate === median(rates));
      return [
        names[path],
        median(rates).toFixed(0),
        middle.result.latency.p50,
        middle.result.latency.p99,
        middle.result.non2xx,
      ];
    }),
  );
  printCpuTable(Object.entries(rows).map(([path, runs]) => ({ name: names[path], cpu: runs.map((run) => run.cpu) })));
  await finish([front.child, back.child], startedKafka);
}

if (role === 'front') await front(Number(port));
else if (role === 'back') await back();
else await bench();
