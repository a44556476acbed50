// Checkout creates per second through the gateway, and the card-payment round trip through
// Kafka to card-processor and back, at fixed concurrencies.
//
//   npm run bench:checkout [-- --creates 2000 --payments 500 --concurrency 16]
import { parseArgs } from 'node:util';
import { log, waitUntilReady } from '../tools/lib.mjs';
import { createPartner, finish, percentile, prepare, startApp } from './support.mjs';

const { values } = parseArgs({
  options: { creates: { type: 'string', default: '2000' }, payments: { type: 'string', default: '500' }, concurrency: { type: 'string', default: '16' } },
});
const [creates, payments, concurrency] = [Number(values.creates), Number(values.payments), Number(values.concurrency)];

const { env, startedKafka } = await prepare('payments_bench_checkout');
const children = [startApp('checkout-gateway', 14300, env), startApp('card-processor', 14301, env)];
const gateway = 'http://127.0.0.1:14300';

/** Runs `total` calls of `task` from `concurrency` workers; returns throughput and sorted latencies. */
async function measure(total, task) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next++;
        const sentAt = performance.now();
        if (!(await task(index))) failures += 1;
        latencies.push(performance.now() - sentAt);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { perSecond: total / ((performance.now() - began) / 1000), latencies, failures };
}

try {
  await Promise.all([waitUntilReady(`${gateway}/health/ready`, 90_000), waitUntilReady('http://127.0.0.1:14301/health/ready', 90_000)]);
  const partner = createPartner(env, 'Bench');
  const headers = { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, 'content-type': 'application/json' };
  const post = async (path, body) => {
    const response = await fetch(`${gateway}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  const newCheckout = () => post('/payin/charge/requests', { amount: '150000', accountName: 'Bench Store', paymentMethod: ['card'] });

  log(`${creates} checkout creates at concurrency ${concurrency}`);
  const createRun = await measure(creates, async () => (await newCheckout()).status === 200);
  log(`preparing ${payments} checkouts for card payments`);
  const references = [];
  for (let i = 0; i < payments; i += 1) references.push((await newCheckout()).body.data.reference);
  log(`${payments} card payments at concurrency ${concurrency}`);
  const payRun = await measure(payments, async (index) => {
    const answer = await post(`/checkout/${references[index]}/card-payment`, { cardNumber: '5060990000000000019', expiryDate: '12/30', cvv: '123' });
    return answer.status === 200 && answer.body.data.transactionStatus === 'SUCCESS';
  });
  console.log('\n| operation | count | concurrency | per second | p50 ms | p99 ms | failed |\n|---|---|---|---|---|---|---|');
  for (const [name, count, run] of [
    ['POST /payin/charge/requests', creates, createRun],
    ['POST /checkout/{reference}/card-payment', payments, payRun],
  ]) {
    console.log(
      `| ${name} | ${count} | ${concurrency} | ${run.perSecond.toFixed(0)} | ${percentile(run.latencies, 50).toFixed(1)} | ${percentile(run.latencies, 99).toFixed(1)} | ${run.failures} |`,
    );
  }
} finally {
  await finish(children, startedKafka);
}
