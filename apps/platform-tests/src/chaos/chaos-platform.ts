import { spawnSync } from 'node:child_process';

import { PrivateBroker, PrivatePostgres } from '@payments/testing';
import { Client } from 'pg';

import { AppName, repoRoot, RunningApp, sharedSecrets, spawnApp, waitForReady } from '../apps';

const ports: Record<AppName, number> = {
  'checkout-gateway': 14500,
  'card-processor': 14501,
  'pos-ingest': 14502,
  'outlet-service': 14503,
  'webhook-dispatcher': 14504,
};
export const platformApps = Object.keys(ports) as AppName[];

/**
 * The whole platform on a PostgreSQL server and a Kafka broker of its own, so that the faults the
 * chaos run injects (killed apps, a stopped broker, a restarted database) never touch the servers
 * every other suite shares.
 */
export class ChaosPlatform {
  readonly postgres = new PrivatePostgres(15480);
  readonly broker = new PrivateBroker(19480);
  private readonly running = new Map<AppName, RunningApp>();
  /** What every app instance printed, the killed ones included. */
  private readonly pastOutput: string[] = [];
  /** Apps that exited without being told to. */
  readonly crashes: string[] = [];
  /** The last lines each of them printed. */
  readonly crashOutput: string[] = [];
  private stopping = false;

  constructor(private readonly extraEnv: Record<string, string>) {}

  get databaseUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.postgres.port}/payments`;
  }

  url(app: AppName): string {
    return `http://127.0.0.1:${ports[app]}`;
  }

  async start(): Promise<void> {
    await this.postgres.start();
    const admin = new Client({ connectionString: this.postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE payments');
    await admin.end();
    await this.broker.start();
    // One at a time: each app migrates its own schema and creates its topics.
    for (const app of platformApps) await this.startApp(app);
  }

  async startApp(app: AppName): Promise<void> {
    const instance = spawnApp(app, this.appEnv(app));
    this.running.set(app, instance);
    // As an orchestrator would: an app that exits on its own (it gives up on a dependency) is
    // restarted, and the run reports it.
    void instance.exited.then(({ code, signal }) => {
      if (this.running.get(app) !== instance || this.stopping) return;
      this.crashes.push(`${app} (${signal ?? `exit ${code}`})`);
      this.crashOutput.push(`${app}:\n${instance.output().slice(-3000)}`);
      this.pastOutput.push(instance.output());
      this.running.delete(app);
      void this.startApp(app).catch(() => undefined);
    });
    await waitForReady(ports[app], instance, 120_000);
  }

  /** SIGKILL, as a crashed process or a killed pod: no shutdown hooks run. */
  async kill(app: AppName): Promise<void> {
    const instance = this.running.get(app)!;
    this.running.delete(app);
    instance.process.kill('SIGKILL');
    await instance.exited;
    this.pastOutput.push(instance.output());
  }

  async query<T>(statement: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query(statement, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** A command-line tool of an app, run as an operator runs it, against this platform. */
  cli(app: AppName, script: string, args: string[]): string {
    const result = spawnSync(
      process.execPath,
      ['-r', './tools/runtime/register-paths.cjs', `dist/apps/${app}/src/cli/${script}.js`, ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, ...sharedSecrets, ...this.appEnv(app), NODE_ENV: 'test', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    if (result.status !== 0) throw new Error(`${script} failed: ${result.stderr}`);
    return result.stdout;
  }

  /** Every line every app instance printed so far. */
  output(): string {
    return [...this.pastOutput, ...[...this.running.values()].map((instance) => instance.output())].join('\n');
  }

  alive(app: AppName): boolean {
    const instance = this.running.get(app);
    return instance !== undefined && instance.process.exitCode === null && instance.process.signalCode === null;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const instance of this.running.values()) instance.process.kill('SIGTERM');
    await Promise.all([...this.running.values()].map((instance) => instance.exited));
    await this.broker.destroy().catch(() => undefined);
    await this.postgres.destroy().catch(() => undefined);
  }

  private appEnv(app: AppName): Record<string, string> {
    return {
      PORT: String(ports[app]),
      DATABASE_URL: this.databaseUrl,
      KAFKA_BROKERS: this.broker.brokers,
      LOG_LEVEL: 'info',
      ...this.extraEnv,
    };
  }
}
