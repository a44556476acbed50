// POST /pos throughput and latency at a fixed concurrency, next to a bare Fastify route that
// answers a constant envelope: the CPU the whole machine spends per request of each, and their
// ratio (target: a bare request costs at least 40% of a submission), and the throughput ratio.
//
//   npm run bench:pos [-- --connections 32 --seconds 10 --rounds 3 --warm-up 15 --profile <dir>]
//
// Starts Kafka (if needed), a fresh `payments_bench_pos` database and pos-ingest in production
// mode, registers a terminal, and sends distinct encrypted transactions with autocannon: a
// warm-up (long enough for the JIT of a freshly started broker, not only of the servers), then
// rounds alternating between the targets; the tables show each one's median round: its rate
// and latency, and the CPU each process on the machine spent per request.
// --profile writes a V8 CPU profile of pos-ingest into <dir> (open it in Chrome's DevTools).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

import autocannon from 'autocannon';

import { log, onPostgres, root, waitUntilReady } from '../tools/lib.mjs';
import { benchOptions, CpuMeter, finish, median, perOperation, prepare, printCpuTable, startApp } from './support.mjs';

const {
  connections,
  seconds: duration,
  rounds,
  'warm-up': warmUp,
  profile,
} = benchOptions({ connections: 32, seconds: 10, rounds: 3, 'warm-up': 15 }, { profiles: true });

const { env, startedKafka } = await prepare('payments_bench_pos');
const require = createRequire(import.meta.url);
require('../tools/runtime/register-paths.cjs');
const { Sealer, encryptPosPayload } = require('@payments/platform-crypto');
const posIngest = startApp('pos-ingest', 14202, env, { cpuProfileDir: profile });
const bareRoute = spawn(process.execPath, ['bench/bare-route.mjs'], {
  cwd: root,
  env: { ...env, PORT: '14299' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const children = [posIngest, bareRoute];

/** Runs autocannon against a target, each request taking the target's next body. */
function run(target, bodies, seconds = duration) {
  return new Promise((resolve, reject) => {
    const meter = new CpuMeter({ server: () => target.process.pid });
    const before = meter.snapshot();
    autocannon(
      {
        url: target.url,
        connections,
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (request) => ({ ...request, body: bodies[target.sent++ % bodies.length] }) }],
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({ ...result, cpu: perOperation(meter.used(before, meter.snapshot()), result.requests.total) });
      },
    );
  });
}

try {
  await Promise.all([waitUntilReady('http://127.0.0.1:14202/health/ready', 90_000)]);
  const [businessId, posKey, serial] = ['01BENCHBUSINESS0000000000A', 'AbCdEfGh12345678', 'SN-BENCH-1'];
  await onPostgres(async (db) => {
    await db.query(`INSERT INTO pos_ingest.integrators (business_id, mode, pos_key_sealed) VALUES ($1, 'test', $2)`, [
      businessId,
      new Sealer(env.POS_KEY_SEALING_KEY).seal(posKey, businessId),
    ]);
    await db.query(`INSERT INTO pos_ingest.terminals (serial_number, business_id) VALUES ($1, $2)`, [
      serial,
      businessId,
    ]);
  }, env.DATABASE_URL);

  log('preparing distinct encrypted transactions');
  const bodies = Array.from({ length: 400_000 }, (_, i) =>
    JSON.stringify({
      serialNumber: serial,
      data: encryptPosPayload(
        {
          accountType: 'savings',
          amount: String(1000 + i),
          cardExpiryDate: '2812',
          iccData: '9F2608C0FFEE',
          pan: '5061460410120223210',
          pinBlock: 'null',
          sequenceNumber: String(i).padStart(8, '0'),
          cardHolderName: 'BENCH',
          aid: 'A0000003710001',
          track2Data: '5061460410120223210D2812',
          institutionCode: '627629',
        },
        posKey,
      ),
    }),
  );
  // Each target keeps its place in the bodies across runs: pos-ingest sees every transaction
  // once (a repeat would be a cheaper resubmission) unless it outgrows them, which is reported.
  const targets = [
    { name: 'bare Fastify route', url: 'http://127.0.0.1:14299/pos', process: bareRoute, results: [], sent: 0 },
    { name: 'pos-ingest POST /pos', url: 'http://127.0.0.1:14202/pos', process: posIngest, results: [], sent: 0 },
  ];
  log('warming up both targets');
  for (const target of targets) await run(target, bodies, warmUp);
  // Rounds alternate between the targets, so a noisy neighbour on the machine hits both alike.
  for (let round = 1; round <= rounds; round += 1) {
    for (const target of targets) {
      log(`round ${round}/${rounds}: ${target.name}, ${connections} connections, ${duration} s`);
      target.results.push(await run(target, bodies));
    }
  }
  console.log(`\n${connections} connections, ${rounds} rounds of ${duration} s each; the median round per target.\n`);
  console.log('| target | requests/s | p50 ms | p99 ms | non-2xx | requests/s per round |\n|---|---|---|---|---|---|');
  for (const { name, results } of targets) {
    const perSecond = results.map((result) => result.requests.average);
    const cells = [
      median(perSecond),
      median(results.map((result) => result.latency.p50)),
      median(results.map((result) => result.latency.p99)),
    ];
    const non2xx = results.reduce((sum, result) => sum + result.non2xx, 0);
    console.log(
      `| ${name} | ${cells[0].toFixed(0)} | ${cells[1]} | ${cells[2]} | ${non2xx} | ${perSecond.map((value) => value.toFixed(0)).join(', ')} |`,
    );
  }
  const [bare, pos] = targets.map((target) => median(target.results.map((result) => result.requests.average)));
  console.log(`\nThroughput, pos-ingest / bare route: ${((pos / bare) * 100).toFixed(0)}%`);

  // Everything shares this machine's cores, so the CPU a request costs all of them together
  // bounds the rate: with every core busy, cores × 1 s / (µs per request).
  const [bareCost, posCost] = printCpuTable(
    targets.map(({ name, results }) => ({ name, cpu: results.map((result) => result.cpu) })),
  );
  console.log(
    `\nCPU per request, bare route / pos-ingest: ${((bareCost / posCost) * 100).toFixed(0)}% (target: at least 40%)`,
  );
  const repeated = targets[1].sent - bodies.length;
  if (repeated > 0)
    console.log(
      `${repeated} pos-ingest requests repeated an earlier transaction: raise the body count for this machine.`,
    );
} finally {
  await finish(children, startedKafka);
}
