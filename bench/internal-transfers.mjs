// Internal transfers through the gateway, side by side with pgbench's TPC-B-like workload on
// the same PostgreSQL, in one run: what a money command costs next to a plain bank transaction.
//
//   npm run bench [-- --seconds 20 --rounds 3 --connections 16 --outlets 20 --warm-up 10 --profile <dir> --cluster]
//
// Starts Kafka (if needed; with --cluster, the secured local cluster of three), a fresh `payments_bench` database, outlet-service and the gateway
// in production mode, funds the wallets of a few outlets through the sandbox rail, and
// initialises a pgbench database (scale 10). Then rounds alternate: transfers between random
// wallets from `connections` clients for `seconds`, pgbench (16 clients, same duration), and
// the partner API's rate limit check on its own (bench/rate-limit-cost.mjs).
// Tables: each side's median round, the ratio, and the CPU every process spent per operation.
// --profile writes V8 CPU profiles of both apps into <dir> (open them in Chrome's DevTools).
import { randomUUID } from 'node:crypto';

import autocannon from 'autocannon';

import { log, waitUntilReady } from '../tools/lib.mjs';
import { rateLimitRound } from './rate-limit-cost.mjs';
import {
  beforeRound,
  benchOptions,
  CpuMeter,
  createPartner,
  finish,
  median,
  perOperation,
  pgbenchRound,
  prepare,
  preparePgbench,
  printCostInBankTransactions,
  printCpuTable,
  printTable,
  quiet,
  startApp,
} from './support.mjs';

const {
  seconds,
  rounds,
  connections,
  outlets: outletCount,
  'warm-up': warmUp,
  profile,
  cluster,
} = benchOptions(
  { seconds: 20, rounds: 3, connections: 16, outlets: 20, 'warm-up': 10 },
  { profiles: true, cluster: true },
);

const { env, startedKafka } = await prepare('payments_bench', { cluster });
const profiling = { cpuProfileDir: profile };
const apps = {
  'outlet-service': startApp('outlet-service', 14003, env, profiling),
  'checkout-gateway': startApp('checkout-gateway', 14000, env, profiling),
};
const gateway = 'http://127.0.0.1:14000';

/** One round of transfers: rate, latency, and CPU per transfer of every process. */
async function transferRound(wallets, headers, duration) {
  const meter = new CpuMeter(Object.fromEntries(Object.entries(apps).map(([name, child]) => [name, () => child.pid])));
  await beforeRound(meter, env.DATABASE_URL);
  const before = meter.snapshot();
  const result = await autocannon({
    url: `${gateway}/transfer/internal`,
    connections,
    duration,
    method: 'POST',
    headers,
    requests: [
      {
        setupRequest: (request) => {
          const from = wallets[Math.floor(Math.random() * wallets.length)];
          let to = from;
          while (to === from) to = wallets[Math.floor(Math.random() * wallets.length)];
          return {
            ...request,
            body: JSON.stringify({
              reference: randomUUID(),
              amount: '100',
              sourceWalletId: from,
              destinationWalletId: to,
            }),
          };
        },
      },
    ],
  });
  const done = result.requests.total;
  // What the transfers queued and the apps finish afterwards (the transaction history) is their cost too.
  await quiet(meter);
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    cpu: perOperation(meter.used(before, meter.snapshot()), done),
  };
}

try {
  await Promise.all([
    waitUntilReady('http://127.0.0.1:14003/health/ready', 90_000),
    waitUntilReady(`${gateway}/health/ready`, 90_000),
  ]);
  const partner = createPartner(env, 'Bench');
  const headers = {
    'x-api-key': partner.apiKey,
    'x-api-secret': partner.apiSecret,
    'content-type': 'application/json',
  };
  const call = async (method, path, body, extraHeaders = {}) => {
    const response = await fetch(`${gateway}${path}`, {
      method,
      headers: { ...headers, ...extraHeaders },
      body: body && JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  // A set-up step's request, sent again with the same idempotency while it answers 503 (the
  // partner's onboarding not yet at outlet-service, or a service still warming up) or 404 (a
  // new outlet's account not yet found): the data the bench stands on is made once, and a step
  // that never succeeds stops the bench saying why.
  const setUp = async (path, body, idempotencyKey = randomUUID()) => {
    for (const deadline = Date.now() + 60_000; ;) {
      const answer = await call('POST', path, body, { 'idempotency-key': idempotencyKey });
      if (answer.status === 200) return answer.body.data;
      if (![503, 404].includes(answer.status) || Date.now() > deadline) {
        throw new Error(`set-up: POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  for (let ready = false; !ready;) {
    ready = (await call('GET', '/outlets')).status === 200;
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }

  log(`setting up ${outletCount} funded outlets`);
  const wallets = [];
  for (let i = 0; i < outletCount; i += 1) {
    const outlet = await setUp('/outlets', { accountName: `Bench ${i}` });
    for (const wallet of [outlet.collectionWallet, outlet.depositWallet]) {
      await setUp(`/sandbox/virtual-accounts/${wallet.accountNumber}/credit`, {
        amount: '100000000000',
        sessionId: randomUUID(),
      });
    }
    wallets.push(outlet.collectionWallet.walletId, outlet.depositWallet.walletId);
  }

  await preparePgbench();

  log(`warming up for ${warmUp} s`);
  await transferRound(wallets, headers, warmUp);
  const transfers = [];
  const banks = [];
  const limitChecks = [];
  for (let round = 1; round <= rounds; round += 1) {
    log(`round ${round}/${rounds}: transfers, ${connections} clients, ${seconds} s`);
    transfers.push(await transferRound(wallets, headers, seconds));
    log(`round ${round}/${rounds}: pgbench TPC-B-like, 16 clients, ${seconds} s`);
    banks.push(await pgbenchRound(seconds, apps));
    log(`round ${round}/${rounds}: rate limit checks, ${connections} callers, ${seconds} s`);
    limitChecks.push(await rateLimitRound(env.DATABASE_URL, seconds, connections));
  }

  const transferRate = median(transfers.map((round) => round.perSecond));
  const tps = median(banks.map((round) => round.tps));
  console.log(`\n${rounds} rounds of ${seconds} s each, alternating; the median round of each.`);
  printTable(
    ['operation', 'per second', 'p50 ms', 'p99 ms', 'non-2xx', 'per second by round'],
    [
      [
        `POST /transfer/internal, ${connections} clients`,
        transferRate.toFixed(0),
        String(median(transfers.map((round) => round.p50))),
        String(median(transfers.map((round) => round.p99))),
        String(transfers.reduce((sum, round) => sum + round.non2xx, 0)),
        transfers.map((round) => round.perSecond.toFixed(0)).join(', '),
      ],
      [
        'pgbench TPC-B-like, 16 clients',
        tps.toFixed(0),
        median(banks.map((round) => round.latencyMs)).toFixed(1),
        '',
        '',
        banks.map((round) => round.tps.toFixed(0)).join(', '),
      ],
    ],
  );
  console.log(`\ntransfers / pgbench TPS: ${((transferRate / tps) * 100).toFixed(1)}% (target: 30%)`);
  const [transfer, bank, limitCheck] = printCpuTable([
    { name: 'internal transfer', cpu: transfers.map((round) => round.cpu) },
    { name: 'pgbench transaction', cpu: banks.map((round) => round.cpu) },
    { name: 'rate limit check (in process)', cpu: limitChecks.map((round) => round.cpu) },
  ]);
  printCostInBankTransactions('internal transfer', transfer, bank, 6);
  console.log(
    `rate limit check / internal transfer: ${((limitCheck / transfer) * 100).toFixed(1)}% of its CPU (target: at most 5%)`,
  );
} finally {
  await finish(Object.values(apps), startedKafka);
}
