// POST /pos throughput and latency at a fixed concurrency, next to a bare Fastify route that
// answers a constant envelope, with their ratio (target: pos-ingest at 40% or more).
//
//   npm run bench:pos [-- --connections 32 --seconds 10]
//
// Starts Kafka (if needed), a fresh `payments_bench_pos` database and pos-ingest in production
// mode, registers a terminal, and sends distinct encrypted transactions with autocannon.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { log, root, waitUntilReady } from '../tools/lib.mjs';
import { finish, prepare, startApp } from './support.mjs';

const { values } = parseArgs({ options: { connections: { type: 'string', default: '32' }, seconds: { type: 'string', default: '10' } } });
const connections = Number(values.connections);
const duration = Number(values.seconds);

const { env, startedKafka, pg } = await prepare('payments_bench_pos');
const require = createRequire(import.meta.url);
require('../tools/runtime/register-paths.cjs');
const { Sealer, encryptPosPayload } = require('@payments/platform-crypto');
const children = [
  startApp('pos-ingest', 14202, env),
  spawn(process.execPath, ['bench/bare-route.mjs'], { cwd: root, env: { ...env, PORT: '14299' }, stdio: ['ignore', 'ignore', 'inherit'] }),
];

function run(url, bodies) {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

try {
  await Promise.all([waitUntilReady('http://127.0.0.1:14202/health/ready', 90_000)]);
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  const [businessId, posKey, serial] = ['01BENCHBUSINESS0000000000A', 'AbCdEfGh12345678', 'SN-BENCH-1'];
  await db.query(`INSERT INTO pos_ingest.integrators (business_id, mode, pos_key_sealed) VALUES ($1, 'test', $2)`, [businessId, new Sealer(env.DATA_ENCRYPTION_KEY).seal(posKey, businessId)]);
  await db.query(`INSERT INTO pos_ingest.terminals (serial_number, business_id) VALUES ($1, $2)`, [serial, businessId]);
  await db.end();

  log('preparing distinct encrypted transactions');
  const bodies = Array.from({ length: 60_000 }, (_, i) =>
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
  log(`bare route, ${connections} connections, ${duration} s`);
  const bare = await run('http://127.0.0.1:14299/pos', bodies);
  log(`pos-ingest, ${connections} connections, ${duration} s`);
  const pos = await run('http://127.0.0.1:14202/pos', bodies);
  const row = (name, result) => `| ${name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`;
  console.log('\n| target | requests/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|');
  console.log(row('bare Fastify route', bare));
  console.log(row('pos-ingest POST /pos', pos));
  console.log(`\npos-ingest / bare route: ${((pos.requests.average / bare.requests.average) * 100).toFixed(0)}%`);
} finally {
  await finish(children, startedKafka);
}
