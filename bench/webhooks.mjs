// Webhook deliveries: throughput over many endpoints and to one, and publish-to-delivery latency
// at a steady rate, with the CPU every process spends per delivery.
//
//   npm run bench:webhooks [-- --endpoints 100 --burst 10000 --single 5000 --rate 1000 --seconds 10 --rounds 3]
//
// Starts Kafka (if needed), a fresh `payments_bench_webhooks` database, the gateway (it onboards
// partners) and webhook-dispatcher with production defaults (four slots per endpoint), and one
// local receiver that answers 204 at once on `endpoints` paths: each partner's webhook URL is a
// path of its own, so each is an endpoint of its own. Partner events are published straight to
// `partner.events.v1`; each is timed from publication to its arrival at the receiver. Each round:
// a burst spread over every endpoint, a steady `rate` per second over every endpoint, and a
// burst to a single endpoint, each after the database is vacuumed and its statistics taken, as
// autovacuum keeps a production server's.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { log, waitUntilReady } from '../tools/lib.mjs';
import {
  beforeRound,
  benchOptions,
  CpuMeter,
  createPartner,
  finish,
  median,
  percentile,
  perOperation,
  prepare,
  printCpuTable,
  printTable,
  startApp,
} from './support.mjs';

const {
  endpoints: endpointCount,
  burst,
  single,
  rate,
  seconds,
  rounds,
} = benchOptions({ endpoints: 100, burst: 10_000, single: 5_000, rate: 1_000, seconds: 10, rounds: 3 });

const { env, startedKafka } = await prepare('payments_bench_webhooks');
// The receivers are on this machine: a developer's setting, never a production one, for the
// apps (and the onboarding command) that set and deliver to webhook URLs.
const localReceivers = { ...env, NODE_ENV: 'development', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' };
const apps = {
  'checkout-gateway': startApp('checkout-gateway', 14100, localReceivers),
  'webhook-dispatcher': startApp('webhook-dispatcher', 14104, localReceivers),
};
const meter = new CpuMeter(Object.fromEntries(Object.entries(apps).map(([name, child]) => [name, () => child.pid])));
const { Kafka, Partitioners, logLevel } = await import('kafkajs');
const producer = new Kafka({
  clientId: 'bench-webhooks',
  brokers: env.KAFKA_BROKERS.split(','),
  logLevel: logLevel.ERROR,
}).producer({
  createPartitioner: Partitioners.DefaultPartitioner,
});
const now = () => performance.timeOrigin + performance.now();

/** One server, many endpoints: records when each event id arrived, and answers at once. */
const arrivals = new Map();
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    arrivals.set(request.headers['x-event-id'], now());
    response.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = (index) => `http://127.0.0.1:${receiver.address().port}/hooks/${index}`;

async function publish(events) {
  await producer.send({
    topic: 'partner.events.v1',
    acks: -1,
    messages: events.map(({ businessId, eventId }) => ({
      key: businessId,
      value: JSON.stringify({
        eventId,
        type: 'partner.event.v1',
        occurredAt: new Date().toISOString(),
        businessId,
        payload: {
          event: 'fundAccount.success',
          eventData: { amount: '150000', transactionStatus: 'SUCCESS', transactionReference: eventId },
        },
      }),
    })),
  });
}

/** Publishes `total` events over `businesses` (in tens; `perSecond` paces them) and waits for every arrival. */
async function scenario(businesses, total, perSecond) {
  await beforeRound(meter, env.DATABASE_URL);
  const sent = new Map();
  const before = meter.snapshot();
  const began = now();
  for (let i = 0; i < total; i += 100) {
    const events = Array.from({ length: Math.min(100, total - i) }, (_, j) => ({
      businessId: businesses[(i + j) % businesses.length],
      eventId: randomUUID(),
    }));
    for (const { eventId } of events) sent.set(eventId, now());
    await publish(events);
    if (perSecond) {
      const due = began + ((i + 100) / perSecond) * 1000;
      if (due > now()) await new Promise((resolve) => setTimeout(resolve, due - now()));
    }
  }
  while ([...sent.keys()].some((id) => !arrivals.has(id))) await new Promise((resolve) => setTimeout(resolve, 20));
  const latencies = [...sent].map(([id, at]) => arrivals.get(id) - at).sort((a, b) => a - b);
  const lastArrival = Math.max(...[...sent.keys()].map((id) => arrivals.get(id)));
  return {
    perSecond: total / ((lastArrival - began) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpu: perOperation(meter.used(before, meter.snapshot()), total),
  };
}

try {
  await Promise.all([
    waitUntilReady('http://127.0.0.1:14100/health/ready', 90_000),
    waitUntilReady('http://127.0.0.1:14104/health/ready', 90_000),
  ]);
  log(`onboarding ${endpointCount} partners, each with an endpoint of its own`);
  const partners = [];
  for (let i = 0; i < endpointCount; i += 8) {
    partners.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(8, endpointCount - i) }, (_, j) =>
          Promise.resolve(createPartner(localReceivers, `Bench ${i + j}`, ['--webhook-url', receiverUrl(i + j)])),
        ),
      )),
    );
  }
  await producer.connect();
  // Every endpoint exists once a test event for each has arrived.
  const probe = partners.map((partner) => ({ businessId: partner.businessId, eventId: randomUUID() }));
  await publish(probe);
  while (probe.some(({ eventId }) => !arrivals.has(eventId))) await new Promise((resolve) => setTimeout(resolve, 100));
  const businesses = partners.map((partner) => partner.businessId);

  log('warming up');
  await scenario(businesses, Math.min(burst, 5000));
  const results = { spread: [], paced: [], single: [] };
  for (let round = 1; round <= rounds; round += 1) {
    log(`round ${round}/${rounds}: ${burst} events at once over ${endpointCount} endpoints`);
    results.spread.push(await scenario(businesses, burst));
    log(`round ${round}/${rounds}: ${rate} events a second over ${endpointCount} endpoints for ${seconds} s`);
    results.paced.push(await scenario(businesses, rate * seconds, rate));
    log(`round ${round}/${rounds}: ${single} events at once to one endpoint`);
    results.single.push(await scenario([businesses[0]], single));
  }
  const row = (name, runs) => [
    name,
    median(runs.map((run) => run.perSecond)).toFixed(0),
    median(runs.map((run) => run.p50)).toFixed(0),
    median(runs.map((run) => run.p99)).toFixed(0),
    runs.map((run) => run.perSecond.toFixed(0)).join(', '),
  ];
  console.log(`\n${rounds} rounds; the median round of each. Latency is from publication to arrival at the receiver.`);
  printTable(
    ['scenario', 'deliveries/s', 'p50 ms', 'p99 ms', 'deliveries/s by round'],
    [
      row(`${burst} at once over ${endpointCount} endpoints`, results.spread),
      row(`${rate}/s over ${endpointCount} endpoints`, results.paced),
      row(`${single} at once to one endpoint`, results.single),
    ],
  );
  printCpuTable([
    { name: `delivery, ${endpointCount} endpoints`, cpu: results.spread.map((run) => run.cpu) },
    { name: 'delivery, one endpoint', cpu: results.single.map((run) => run.cpu) },
  ]);
} finally {
  await producer.disconnect().catch(() => undefined);
  receiver.closeAllConnections();
  receiver.close();
  await finish(Object.values(apps), startedKafka);
}
