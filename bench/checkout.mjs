// Checkout creates and card payments through the gateway, with the CPU every process spends on
// each, POS transactions worked through from a queue, and card payments while card-processor
// works through a POS backlog.
//
//   npm run bench:checkout [-- --seconds 10 --rounds 3 --connections 16 --drain 20000 --backlog 200000 --warm-up 10 --profile <dir> --cluster]
//
// Starts Kafka (if needed; with --cluster, the secured local cluster of three), a fresh `payments_bench_checkout` database, the gateway,
// card-processor and outlet-service in production mode, and a partner. Each round, in turn:
// checkout creates paced at 200/s (evenly spaced: bench/paced.mjs); card payments (the no-verification test card) from
// `connections` clients; card payments paced at 100/s; pgbench's TPC-B-like workload, the
// yardstick the card payment's CPU is divided by; `drain` POS transactions queued for
// card-processor with nothing else running, timed until outlet-service has credited the last.
// Then `backlog` POS transactions are queued for card-processor and paced card payments are
// measured again while it works through them. Tables: each measurement's median round and the
// CPU per operation of every process.
import { createRequire } from 'node:module';

import { log, onPostgres, waitUntilReady } from '../tools/lib.mjs';
import { paced } from './paced.mjs';
import {
  beforeRound,
  benchKafka,
  benchOptions,
  checkoutBody,
  closedLoop,
  CpuMeter,
  createCheckouts,
  createPartner,
  finish,
  median,
  noVerificationCard,
  perOperation,
  pgbenchRound,
  prepare,
  preparePgbench,
  printCostInBankTransactions,
  printCpuTable,
  printTable,
  quiet,
  startApp,
  untilPartnerServed,
} from './support.mjs';

const {
  seconds,
  rounds,
  connections,
  drain,
  backlog,
  'warm-up': warmUp,
  profile,
  cluster,
} = benchOptions(
  { seconds: 10, rounds: 3, connections: 16, drain: 20_000, backlog: 200_000, 'warm-up': 10 },
  { profiles: true, cluster: true },
);

const { env, startedKafka } = await prepare('payments_bench_checkout', { cluster });
const require = createRequire(import.meta.url);
require('../tools/runtime/register-paths.cjs');
// --profile writes V8 CPU profiles of the three apps into <dir> (open them in Chrome's DevTools).
const profiling = { cpuProfileDir: profile };
const apps = {
  'checkout-gateway': startApp('checkout-gateway', 14300, env, profiling),
  'card-processor': startApp('card-processor', 14301, env, profiling),
  'outlet-service': startApp('outlet-service', 14303, env, profiling),
};
const gateway = 'http://127.0.0.1:14300';
const meter = new CpuMeter(Object.fromEntries(Object.entries(apps).map(([name, child]) => [name, () => child.pid])));

/**
 * One measurement: from `connections` clients as fast as they are answered, or, with `rate`,
 * paced (bench/paced.mjs). `body`/`path` give each request its own. Rate, latency, and CPU per request.
 */
async function measure({ path, method = 'POST', headers, body, rate, duration = seconds, settle = true }) {
  // Rounds with a backlog are meant to share the machine with it.
  if (settle) await beforeRound(meter, env.DATABASE_URL);
  const before = meter.snapshot();
  const result = rate
    ? await paced({
        origin: gateway,
        rate,
        seconds: duration,
        request: () => ({ path: path(), method, headers, body: body?.() }),
      })
    : await closedLoop({ origin: gateway, connections, path, method, headers, body, duration });
  // What the round queued and its apps finish afterwards (events, the transaction history) is its cost too.
  if (settle) await quiet(meter);
  return { ...result, cpu: perOperation(meter.used(before, meter.snapshot()), Math.max(1, result.total)) };
}

try {
  await Promise.all(
    Object.keys(apps).map((name, index) =>
      waitUntilReady(`http://127.0.0.1:${[14300, 14301, 14303][index]}/health/ready`, 90_000),
    ),
  );
  const partner = createPartner(env, 'Bench');
  const headers = {
    'x-api-key': partner.apiKey,
    'x-api-secret': partner.apiSecret,
    'content-type': 'application/json',
  };
  await untilPartnerServed(gateway, headers);

  const payments = async (options) => {
    const count = options.rate ? options.rate * seconds * 1.2 : 1200 * seconds;
    const references = await createCheckouts(gateway, headers, count);
    let next = 0;
    return measure({
      ...options,
      path: () => `/checkout/${references[next++ % references.length]}/card-payment`,
      body: () => noVerificationCard,
    });
  };

  log(`warming up for ${warmUp} s`);
  await measure({
    path: () => '/payin/charge/requests',
    headers,
    body: checkoutBody,
    duration: warmUp,
  });
  await payments({ headers, duration: warmUp });

  await preparePgbench();
  const results = { creates: [], payments: [], paced: [], drained: [], backlog: [], banks: [] };
  for (let round = 1; round <= rounds; round += 1) {
    log(`round ${round}/${rounds}: checkout creates at 200/s`);
    results.creates.push(
      await measure({ path: () => '/payin/charge/requests', headers, body: checkoutBody, rate: 200 }),
    );
    log(`round ${round}/${rounds}: card payments, ${connections} clients`);
    results.payments.push(await payments({ headers }));
    log(`round ${round}/${rounds}: card payments at 100/s`);
    results.paced.push(await payments({ headers, rate: 100 }));
    log(`round ${round}/${rounds}: pgbench TPC-B-like, 16 clients, ${seconds} s`);
    results.banks.push(await pgbenchRound(seconds, apps));
    if (drain > 0) {
      log(`round ${round}/${rounds}: ${drain} queued POS transactions decided and credited`);
      results.drained.push(await drainPos(drain, partner.businessId, `R${round}`));
    }
  }

  if (backlog > 0) {
    log(`queueing ${backlog} POS transactions for card-processor`);
    await queuePosBacklog(backlog, partner.businessId, 'BACKLOG');
    for (let round = 1; round <= rounds; round += 1) {
      log(`round ${round}/${rounds}: card payments at 100/s, with the POS backlog being worked through`);
      results.backlog.push(await payments({ headers, rate: 100, settle: false }));
    }
  }

  const row = (name, runs) => [
    name,
    median(runs.map((run) => run.perSecond)).toFixed(0),
    String(median(runs.map((run) => run.p50))),
    String(median(runs.map((run) => run.p99))),
    String(runs.reduce((sum, run) => sum + run.non2xx, 0)),
    runs.map((run) => run.perSecond.toFixed(0)).join(', '),
  ];
  console.log(`\n${rounds} rounds of ${seconds} s each; the median round of each.`);
  printTable(
    ['operation', 'per second', 'p50 ms', 'p99 ms', 'failed', 'per second by round'],
    [
      row('POST /payin/charge/requests at 200/s', results.creates),
      row(`card payment, ${connections} clients`, results.payments),
      row('card payment at 100/s', results.paced),
      ...(backlog > 0 ? [row(`card payment at 100/s, ${backlog} POS transactions queued`, results.backlog)] : []),
    ],
  );
  if (drain > 0) {
    const rates = results.drained.map((run) => run.perSecond);
    console.log(
      `\n${drain} queued POS transactions decided and credited: ${median(rates).toFixed(0)}/s (by round: ${rates.map((rate) => rate.toFixed(0)).join(', ')})`,
    );
  }
  if (backlog > 0) {
    const ratio = median(results.backlog.map((run) => run.p99)) / median(results.paced.map((run) => run.p99));
    console.log(`\ncard payment p99 with the POS backlog / without: ${ratio.toFixed(2)}× (target: at most 2×)`);
  }
  const [, cardPayment, , bank] = printCpuTable([
    { name: 'checkout create', cpu: results.creates.map((run) => run.cpu) },
    { name: 'card payment', cpu: results.payments.map((run) => run.cpu) },
    { name: 'card payment at 100/s', cpu: results.paced.map((run) => run.cpu) },
    { name: 'pgbench transaction', cpu: results.banks.map((run) => run.cpu) },
    ...(drain > 0 ? [{ name: 'POS transaction, queued', cpu: results.drained.map((run) => run.cpu) }] : []),
  ]);
  printCostInBankTransactions('card payment', cardPayment, bank, 16);
} finally {
  await finish(Object.values(apps), startedKafka);
}

/**
 * Queues `count` POS transactions and waits until outlet-service has credited the last of them:
 * the rate they were worked through at, and the CPU each cost from the queue to the ledger.
 */
async function drainPos(count, businessId, batch) {
  return onPostgres(async (ledger) => {
    const credited = async () =>
      Number(
        (
          await ledger.query(`SELECT count(*) FROM outlets.journal_entries WHERE business_id = $1 AND kind = 'pos'`, [
            businessId,
          ])
        ).rows[0].count,
      );
    const target = (await credited()) + count;
    await quiet(meter);
    const before = meter.snapshot();
    const started = performance.now();
    await queuePosBacklog(count, businessId, batch);
    // A transaction lost on the way would leave the bench waiting for ever: give up, naming it,
    // after far longer than a sound platform needs to credit a backlog on this machine.
    const drainLimitMs = 300_000;
    const deadline = Date.now() + drainLimitMs;
    for (let done = await credited(); done < target; done = await credited()) {
      if (Date.now() > deadline) {
        throw new Error(
          `${target - done} of ${count} queued POS transactions not credited within ${drainLimitMs / 1000} s`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const perSecond = count / ((performance.now() - started) / 1000);
    await quiet(meter);
    return { perSecond, cpu: perOperation(meter.used(before, meter.snapshot()), count) };
  }, env.DATABASE_URL);
}

/** Publishes accepted POS transactions as pos-ingest would, sealed with the shared card key. */
async function queuePosBacklog(count, businessId, batch) {
  const { Sealer } = require('@payments/platform-crypto');
  const { Partitioners } = await import('kafkajs');
  const { randomUUID } = await import('node:crypto');
  const sealer = new Sealer(env.CARD_DATA_KEY);
  const producer = benchKafka(env, 'bench-pos-backlog', 'ERROR').producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const card = JSON.stringify({
    pan: '5061460410120223210',
    pinBlock: 'null',
    track2Data: '5061460410120223210D2812',
    iccData: '9F2608C0FFEE',
    cardExpiryDate: '2812',
  });
  for (let sent = 0; sent < count; sent += 1000) {
    const messages = Array.from({ length: Math.min(1000, count - sent) }, (_, i) => {
      const reference = `POS-BENCH-${batch}-${sent + i}`;
      const eventId = randomUUID();
      return {
        key: `SN-BENCH-${(sent + i) % 64}`,
        value: JSON.stringify({
          eventId,
          type: 'pos.transaction.accepted.v1',
          occurredAt: new Date().toISOString(),
          businessId,
          payload: {
            reference,
            businessId,
            mode: 'test',
            serialNumber: `SN-BENCH-${(sent + i) % 64}`,
            outletId: null,
            amount: '1000',
            sequenceNumber: String(sent + i),
            accountType: 'savings',
            cardHolderName: 'BENCH',
            aid: 'A0000003710001',
            institutionCode: '627629',
            maskedPan: '506146*********3210',
            sealedCard: sealer.seal(card, reference),
          },
        }),
      };
    });
    await producer.send({ topic: 'pos.transactions.v1', acks: -1, messages });
  }
  await producer.disconnect();
}
