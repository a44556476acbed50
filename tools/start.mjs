// npm start: Kafka, PostgreSQL (an embedded one when none is reachable and DATABASE_URL is
// unset), the development card host (unless CARD_NETWORK_SANDBOX_ADDRESS names another), the five
// apps, and a sandbox partner to try them with. Ctrl-C stops what it started.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

import {
  applyTopics,
  apps,
  dataDir,
  ensureBuild,
  ensureCardHost,
  ensureDependencies,
  ensureKafka,
  localEnv,
  localPostgres,
  log,
  nodeScript,
  spawnApp,
  stopCardHost,
  stopKafka,
  waitUntilReady,
} from './lib.mjs';

const logsDir = join(dataDir, 'logs');

// The gateway on APP_PORT_BASE (3000 unless set), the other apps on the ports after it.
const portBase = Number(process.env.APP_PORT_BASE ?? apps[0].port);
const localApps = apps.map((app, index) => ({ ...app, port: portBase + index }));
const gateway = `http://127.0.0.1:${localApps[0].port}`;

ensureDependencies();
const env = localEnv({
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  CHECKOUT_URL: `${gateway}/checkout`,
});
const startedKafka = ensureKafka(process.env);
const startedCardHost = ensureCardHost(env);
const postgres = process.env.DATABASE_URL ? undefined : await localPostgres();
env.DATABASE_URL = process.env.DATABASE_URL ?? `${postgres.url}/payments`;
ensureBuild();
applyTopics(env);

mkdirSync(logsDir, { recursive: true });
const children = localApps.map((app) => {
  const logFile = openSync(join(logsDir, `${app.name}.log`), 'a');
  const child = spawnApp(app.name, { ...env, PORT: String(app.port), SERVICE_NAME: app.name }, [
    'ignore',
    logFile,
    logFile,
  ]);
  closeSync(logFile);
  return { ...app, child, exited: new Promise((resolve) => child.once('exit', resolve)) };
});

let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  log('stopping');
  for (const { child } of children) child.kill('SIGTERM');
  await Promise.race([
    Promise.all(children.map((app) => app.exited)),
    new Promise((resolve) => setTimeout(resolve, 15_000)),
  ]);
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (startedKafka) stopKafka();
  if (startedCardHost) stopCardHost();
  await postgres?.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
for (const app of children) {
  void app.exited.then((code) => {
    if (stopping) return;
    log(`${app.name} exited (${code}); its log: .data/logs/${app.name}.log`);
    void stopAll(1);
  });
}

log('waiting for the apps to be ready');
try {
  await Promise.all(localApps.map((app) => waitUntilReady(`http://127.0.0.1:${app.port}/health/ready`, 120_000)));
} catch (error) {
  log(`${error.message}: see .data/logs/`);
  await stopAll(1);
}

const created = nodeScript(
  'dist/apps/checkout-gateway/src/cli/partner-create.js',
  ['--name', 'Sandbox Partner', '--json'],
  env,
  ['ignore', 'pipe', 'inherit'],
);
if (created.status !== 0) await stopAll(1);
const partner = JSON.parse(created.stdout.toString());

console.log(`
Payments platform is running (logs in .data/logs/, Ctrl-C stops everything).

${localApps.map((app) => `  ${app.name.padEnd(20)} http://127.0.0.1:${app.port}   ready: /health/ready  metrics: /metrics`).join('\n')}
  API docs             ${gateway}/docs
  Webhooks             sandbox businesses may use receivers on this machine (localhost, private addresses);
                       link-local and metadata addresses stay refused, and production refuses them all
  Kafka                ${env.KAFKA_BROKERS}
  Card network         ${env.CARD_NETWORK_SANDBOX_ADDRESS ?? '127.0.0.1:8583 (the development host, docs/card-network.md)'}
  PostgreSQL           ${env.DATABASE_URL}${postgres?.embedded ? ' (embedded)' : ''}

Sandbox partner ${partner.businessId}
  x-api-key            ${partner.apiKey}
  x-api-secret         ${partner.apiSecret}
  POS encryption key   ${partner.posEncryptionKey}

Try it:
  curl -s ${gateway}/business -H 'x-api-key: ${partner.apiKey}' -H 'x-api-secret: ${partner.apiSecret}'
`);
