// The Nx `serve` target: one built app in the foreground, on its usual port, with the local
// secrets and settings `npm start` uses (.data/local.env), the broker started when none runs and
// PostgreSQL at DATABASE_URL (default: the local server's `payments` database, created if missing).
//   node tools/serve.mjs <app>
import { apps, ensureDatabase, ensureKafka, localEnv, log, spawnApp } from './lib.mjs';

const app = apps.find(({ name }) => name === process.argv[2]);
if (!app) {
  console.error(`usage: node tools/serve.mjs <${apps.map(({ name }) => name).join('|')}>`);
  process.exit(2);
}
ensureKafka(process.env);
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/payments';
if (!process.env.DATABASE_URL) await ensureDatabase('payments');
const env = localEnv({
  KAFKA_BROKERS: '127.0.0.1:9092',
  DATABASE_URL: databaseUrl,
  PORT: String(app.port),
  SERVICE_NAME: app.name,
});
log(`${app.name} on http://127.0.0.1:${env.PORT}`);
const child = spawnApp(app.name, env, 'inherit');
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
