// Webhook deliveries: throughput and event-to-delivery latency to a local receiver, alone and
// with a hanging endpoint of another business beside it.
//
//   npm run bench:webhooks [-- --events 2000]
//
// Starts its own Kafka (if needed), a fresh `payments_bench_webhooks` database, the gateway
// (it relays onboarding events) and webhook-dispatcher with production defaults, then
// publishes partner events straight to Kafka and times their arrival at a local receiver.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { log, waitUntilReady } from '../tools/lib.mjs';
import { createPartner, finish, percentile, prepare, startApp } from './support.mjs';

const { values } = parseArgs({ options: { events: { type: 'string', default: '2000' }, rate: { type: 'string', default: '150' } } });
const total = Number(values.events);
const rate = Number(values.rate);

const { env, startedKafka } = await prepare('payments_bench_webhooks');
const { Kafka, Partitioners, logLevel } = await import('kafkajs');
const brokers = env.KAFKA_BROKERS;
const children = [startApp('checkout-gateway', 14100, env), startApp('webhook-dispatcher', 14104, env)];

/** Records when each event id arrived; a hanging receiver never answers. */
function receiver({ hang }) {
  const arrivals = new Map();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (hang) return;
      arrivals.set(request.headers['x-event-id'], performance.timeOrigin + performance.now());
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, arrivals, url: `http://127.0.0.1:${server.address().port}/hooks` })),
  );
}

function partner(name, url) {
  return createPartner(env, name, ['--webhook-url', url]);
}

async function endpointReady(credentials, url) {
  for (;;) {
    const response = await fetch('http://127.0.0.1:14100/webhooks/endpoint', {
      headers: { 'x-api-key': credentials.apiKey, 'x-api-secret': credentials.apiSecret },
    });
    if (response.status === 200 && (await response.json()).data.url === url) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const kafka = new Kafka({ clientId: 'bench-webhooks', brokers: brokers.split(','), logLevel: logLevel.ERROR });
const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });

const now = () => performance.timeOrigin + performance.now();

/** A burst publishes every event at once; a paced run publishes `rate` events a second, in tens. */
async function scenario(name, target, businessId, hanging, paced) {
  const sent = new Map();
  const began = now();
  for (let i = 0; i < total; i += 10) {
    const batch = [];
    for (let j = i; j < Math.min(total, i + 10); j += 1) {
      const eventId = randomUUID();
      sent.set(eventId, now());
      batch.push({ businessId, eventId });
      if (hanging && j % 10 === 0) batch.push({ businessId: hanging, eventId: randomUUID() });
    }
    await publish(batch);
    if (paced) {
      const due = began + ((i + 10) / rate) * 1000;
      if (due > now()) await new Promise((resolve) => setTimeout(resolve, due - now()));
    }
  }
  while ([...sent.keys()].some((id) => !target.arrivals.has(id))) await new Promise((resolve) => setTimeout(resolve, 50));
  const latencies = [...sent].map(([id, at]) => target.arrivals.get(id) - at).sort((a, b) => a - b);
  const seconds = (Math.max(...[...sent.keys()].map((id) => target.arrivals.get(id))) - began) / 1000;
  return [name, paced ? `${rate}/s` : 'burst', String(total), (total / seconds).toFixed(0), percentile(latencies, 50).toFixed(0), percentile(latencies, 99).toFixed(0)];
}

async function publish(batch) {
  await producer.send({
    topic: 'partner.events.v1',
    acks: -1,
    messages: batch.map(({ businessId: business, eventId }) => ({
      key: business,
      value: JSON.stringify({
        eventId,
        type: 'partner.event.v1',
        occurredAt: new Date().toISOString(),
        businessId: business,
        payload: { event: 'fundAccount.success', eventData: { amount: '150000', transactionStatus: 'SUCCESS' } },
      }),
    })),
  });
}

try {
  await Promise.all([waitUntilReady('http://127.0.0.1:14100/health/ready', 90_000), waitUntilReady('http://127.0.0.1:14104/health/ready', 90_000)]);
  const [healthy, other, hanging] = await Promise.all([receiver({ hang: false }), receiver({ hang: false }), receiver({ hang: true })]);
  const [alone, beside, stuck] = [partner('Bench A', healthy.url), partner('Bench B', other.url), partner('Bench Hanging', hanging.url)];
  await Promise.all([endpointReady(alone, healthy.url), endpointReady(beside, other.url), endpointReady(stuck, hanging.url)]);
  await producer.connect();
  const rows = [];
  for (const paced of [false, true]) {
    log(`${total} events to one receiver (${paced ? `${rate}/s` : 'burst'})`);
    rows.push(await scenario('alone', healthy, alone.businessId, null, paced));
    log(`${total} events to another receiver, with a hanging endpoint beside it (${paced ? `${rate}/s` : 'burst'})`);
    rows.push(await scenario('beside a hanging endpoint', other, beside.businessId, stuck.businessId, paced));
  }
  console.log('\n| scenario | publishing | events | deliveries/s | p50 ms | p99 ms |\n|---|---|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  await producer.disconnect();
  for (const each of [healthy, other, hanging]) {
    each.server.closeAllConnections();
    each.server.close();
  }
} finally {
  await finish(children, startedKafka);
}
