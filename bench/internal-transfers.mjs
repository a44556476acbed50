// Internal transfers through the gateway: throughput and latency at a fixed concurrency.
//
//   npm run bench [-- --transfers 3000 --concurrency 16 --outlets 20]
//
// Starts its own Kafka (if needed), a fresh `payments_bench` database, outlet-service and the
// gateway on ports 14003 and 14000, funds the collection wallets of a few outlets through the
// sandbox rail, then sends transfers between random wallet pairs and prints a table.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { log, waitUntilReady } from '../tools/lib.mjs';
import { createPartner, finish, percentile, prepare, startApp } from './support.mjs';

const { values } = parseArgs({
  options: {
    transfers: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '16' },
    outlets: { type: 'string', default: '20' },
  },
});
const [total, concurrency, outletCount] = [Number(values.transfers), Number(values.concurrency), Number(values.outlets)];

const { env, startedKafka } = await prepare('payments_bench');
const children = [startApp('outlet-service', 14003, env), startApp('checkout-gateway', 14000, env)];
const gateway = 'http://127.0.0.1:14000';

try {
  await Promise.all([waitUntilReady('http://127.0.0.1:14003/health/ready', 90_000), waitUntilReady(`${gateway}/health/ready`, 90_000)]);
  const partner = createPartner(env, 'Bench');
  const headers = { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, 'content-type': 'application/json' };
  const call = async (method, path, body) => {
    const response = await fetch(`${gateway}${path}`, { method, headers, body: body && JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  for (let ready = false; !ready; ) {
    ready = (await call('GET', '/outlets')).status === 200;
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }

  log(`setting up ${outletCount} funded outlets`);
  const wallets = [];
  for (let i = 0; i < outletCount; i += 1) {
    const outlet = (await call('POST', '/outlets', { accountName: `Bench ${i}` })).body.data;
    for (const wallet of [outlet.collectionWallet, outlet.depositWallet]) {
      await call('POST', `/sandbox/virtual-accounts/${wallet.accountNumber}/credit`, { amount: '100000000000' });
    }
    wallets.push(outlet.collectionWallet.walletId, outlet.depositWallet.walletId);
  }

  log(`${total} transfers at concurrency ${concurrency}`);
  const latencies = [];
  const failures = new Map();
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const from = wallets[Math.floor(Math.random() * wallets.length)];
        let to = from;
        while (to === from) to = wallets[Math.floor(Math.random() * wallets.length)];
        const sentAt = performance.now();
        const response = await call('POST', '/transfer/internal', { reference: randomUUID(), amount: '100', sourceWalletId: from, destinationWalletId: to });
        latencies.push(performance.now() - sentAt);
        if (response.status !== 200) failures.set(response.body.data?.code, (failures.get(response.body.data?.code) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  const rows = [
    ['transfers', String(total)],
    ['concurrency', String(concurrency)],
    ['wallets', String(wallets.length)],
    ['failed', [...failures].map(([code, count]) => `${count} ${code}`).join(', ') || '0'],
    ['transfers/s', (total / seconds).toFixed(0)],
    ['p50 ms', percentile(latencies, 50).toFixed(1)],
    ['p99 ms', percentile(latencies, 99).toFixed(1)],
    ['max ms', latencies.at(-1).toFixed(1)],
  ];
  console.log('\n| metric | value |\n|---|---|');
  for (const [metric, value] of rows) console.log(`| ${metric} | ${value} |`);
} finally {
  await finish(children, startedKafka);
}
