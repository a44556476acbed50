// What each durable step of a card payment costs the machine. A no-verification card payment
// goes gateway → card-processor → gateway → outlet-service → gateway, and three of its steps
// write to PostgreSQL with an outbox event: card-processor's charge (card.charge.succeeded),
// outlet-service's ledger entry (checkout.decided) and the gateway's checkout (checkout.success,
// then the transaction history). Each round measures card payments from `connections` clients
// with every step, then with one more step answered at once by bench/card-steps-stubs.cjs
// (loaded into these app processes only), so the difference between two rows is what one step
// costs all processes together, and the last row is what is left: HTTP, authentication,
// validation, sealing and two Kafka request/replies.
//
//   npm run bench:card-steps [-- --seconds 15 --rounds 3 --connections 16 --warm-up 10]
//
// The variants alternate within each round, each with its apps started afresh.
import { fileURLToPath } from 'node:url';

import { log, waitUntilReady } from '../tools/lib.mjs';
import {
  beforeRound,
  benchOptions,
  closedLoop,
  CpuMeter,
  createCheckouts,
  createPartner,
  finish,
  median,
  noVerificationCard,
  perOperation,
  prepare,
  printCpuTable,
  printTable,
  quiet,
  startApp,
  stopApps,
  untilPartnerServed,
} from './support.mjs';

const {
  seconds,
  rounds,
  connections,
  'warm-up': warmUp,
} = benchOptions({ seconds: 15, rounds: 3, connections: 16, 'warm-up': 10 });

const variants = [
  { name: 'every step', stubbed: [] },
  { name: 'without the charge', stubbed: ['charge'] },
  { name: 'without the charge and the ledger entry', stubbed: ['charge', 'ledger'] },
  { name: 'without any of the three', stubbed: ['charge', 'ledger', 'checkout'] },
];
const ports = { 'checkout-gateway': 14310, 'card-processor': 14311, 'outlet-service': 14313 };
const gateway = `http://127.0.0.1:${ports['checkout-gateway']}`;
const preload = fileURLToPath(new URL('./card-steps-stubs.cjs', import.meta.url));

const { env, startedKafka } = await prepare('payments_bench_card_steps');
/** The partner's key headers, once the first apps have migrated the database and it exists. */
let headers;

/** The three apps with `stubbed` steps answered at once, ready to take payments. */
async function startApps(stubbed) {
  const appEnv = { ...env, BENCH_STUBBED_STEPS: stubbed.join(',') };
  const apps = Object.fromEntries(
    Object.entries(ports).map(([name, port]) => [name, startApp(name, port, appEnv, { preload })]),
  );
  await Promise.all(
    Object.values(ports).map((port) => waitUntilReady(`http://127.0.0.1:${port}/health/ready`, 90_000)),
  );
  if (!headers) {
    const partner = createPartner(env, 'Bench');
    headers = { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, 'content-type': 'application/json' };
  }
  await untilPartnerServed(gateway, headers);
  return apps;
}

/**
 * Card payments for `duration` s; with a meter, the CPU each cost. Each pays a fresh checkout
 * (created ahead, so the round measures payments only), but where the gateway's checkout step is
 * left out nothing reads the checkout, and any reference will do.
 */
async function payments(variant, duration, meter) {
  const references = variant.stubbed.includes('checkout')
    ? Array.from({ length: 1000 }, (_, index) => `CHK-BENCH-${index}`)
    : await createCheckouts(gateway, headers, (meter ? 1000 : 500) * duration);
  let next = 0;
  if (meter) await beforeRound(meter, env.DATABASE_URL);
  const before = meter?.snapshot();
  const result = await closedLoop({
    origin: gateway,
    connections,
    path: () => `/checkout/${references[next++ % references.length]}/card-payment`,
    headers,
    body: () => noVerificationCard,
    duration,
  });
  if (!meter) return result;
  await quiet(meter);
  return { ...result, cpu: perOperation(meter.used(before, meter.snapshot()), Math.max(1, result.total)) };
}

const results = variants.map(() => []);
try {
  for (let round = 1; round <= rounds; round += 1) {
    for (const [index, variant] of variants.entries()) {
      log(`round ${round}/${rounds}: card payments ${variant.name}, ${connections} clients`);
      const apps = await startApps(variant.stubbed);
      try {
        const meter = new CpuMeter(
          Object.fromEntries(Object.entries(apps).map(([name, child]) => [name, () => child.pid])),
        );
        await payments(variant, warmUp);
        results[index].push(await payments(variant, seconds, meter));
      } finally {
        await stopApps(Object.values(apps));
      }
    }
  }
} finally {
  await finish([], startedKafka);
}

console.log(`\n${rounds} rounds of ${seconds} s each, ${connections} clients; the median round of each.`);
printTable(
  ['card payment', 'per second', 'p50 ms', 'p99 ms', 'failed', 'per second by round'],
  variants.map((variant, index) => {
    const runs = results[index];
    return [
      variant.name,
      median(runs.map((run) => run.perSecond)).toFixed(0),
      String(median(runs.map((run) => run.p50))),
      String(median(runs.map((run) => run.p99))),
      String(runs.reduce((sum, run) => sum + run.non2xx, 0)),
      runs.map((run) => run.perSecond.toFixed(0)).join(', '),
    ];
  }),
);
const totals = printCpuTable(
  variants.map((variant, index) => ({ name: variant.name, cpu: results[index].map((run) => run.cpu) })),
);
console.log('\nWhat each step costs all processes together (the difference between its row and the next):\n');
printTable(
  ['step', 'µs a payment'],
  ['the charge (card-processor)', 'the ledger entry (outlet-service)', "the checkout (the gateway's record)"].map(
    (step, index) => [step, (totals[index] - totals[index + 1]).toFixed(0)],
  ),
);
