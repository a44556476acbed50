import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import { allTopics, isKafkaApp } from '@payments/contracts';
import { applyTopics, kafkaAclsOf, kafkajsAcls } from '@payments/platform-kafka';
import { DevHost, PrivateBroker, PrivateCluster, PrivatePostgres, startDevHost } from '@payments/testing';
import type { Kafka } from 'kafkajs';
import { Client } from 'pg';

import { AppName, repoRoot, RunningApp, sharedSecrets, spawnApp, waitForReady } from '../apps';

export const platformApps: AppName[] = [
  'checkout-gateway',
  'card-processor',
  'pos-ingest',
  'outlet-service',
  'webhook-dispatcher',
];

/** Instance `slot` of an app listens on 14500 + 10 × slot + the app's place in platformApps. */
const portOf = (app: AppName, slot: number) => 14500 + 10 * slot + platformApps.indexOf(app);

interface Instance {
  app: AppName;
  slot: number;
  running: RunningApp;
  /** Ready and not being taken away: requests are sent to it. */
  inRotation: boolean;
}

export interface ChaosPlatformOptions {
  /** Kafka as a secured cluster of three, each app signed in as its own principal; one plain broker otherwise. */
  cluster?: boolean;
  /** Instances of every app, each on a port of its own. */
  instances?: number;
}

/** The development card host of the run: ISO 8583 and control ports. */
const cardHostPorts = { port: 15580, controlPort: 15581 };

/**
 * The whole platform on a PostgreSQL server, Kafka and a card host of its own, so that the
 * faults the chaos run injects (killed apps and brokers, a restarted database, a card host that
 * drops answers or goes down) never touch the servers every other suite shares. Requests for an app go round the instances that are ready, as a Service
 * in front of them would.
 */
export class ChaosPlatform {
  readonly postgres = new PrivatePostgres(15480);
  readonly broker?: PrivateBroker;
  readonly cluster?: PrivateCluster;
  readonly instancesPerApp: number;
  /** Where every card payment goes; told to misbehave by the run's card network faults. */
  cardHost!: DevHost;
  private readonly zonePinKey = randomBytes(16).toString('hex').toUpperCase();
  private readonly kafkaPasswords = Object.fromEntries(platformApps.map((app) => [app, `${app}-chaos`]));
  private readonly instances: Instance[] = [];
  /** What every app instance printed, the killed ones included. */
  private readonly pastOutput: string[] = [];
  /** Apps that exited without being told to. */
  readonly crashes: string[] = [];
  /** The last lines each of them printed. */
  readonly crashOutput: string[] = [];
  private stopping = false;
  private turn = 0;

  constructor(
    private readonly extraEnv: Record<string, string>,
    options: ChaosPlatformOptions = {},
  ) {
    this.instancesPerApp = options.instances ?? 1;
    if (options.cluster) this.cluster = new PrivateCluster(19700, { admin: 'chaos-admin', ...this.kafkaPasswords });
    else this.broker = new PrivateBroker(19480);
  }

  get databaseUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.postgres.port}/payments`;
  }

  /** The next ready instance of `app`, in turn; its first slot's address while none is ready. */
  url(app: AppName): string {
    const ready = this.instances.filter((instance) => instance.app === app && instance.inRotation);
    const slot = ready.length > 0 ? ready[(this.turn += 1) % ready.length].slot : 0;
    return `http://127.0.0.1:${portOf(app, slot)}`;
  }

  async start(): Promise<void> {
    await this.postgres.start();
    const admin = new Client({ connectionString: this.postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE payments');
    await admin.end();
    if (this.cluster) await this.startCluster(this.cluster);
    else await this.broker!.start();
    this.cardHost = await startDevHost({ ...cardHostPorts, zonePinKey: this.zonePinKey });
    // The first instances one at a time, as each migrates its own schema; the others together.
    for (const app of platformApps) await this.addInstance(app);
    await Promise.all(
      platformApps.flatMap((app) => Array.from({ length: this.instancesPerApp - 1 }, () => this.addInstance(app))),
    );
  }

  /** Starts an instance of `app` in its lowest free slot and puts it in rotation once ready. */
  async addInstance(app: AppName): Promise<void> {
    const taken = new Set(this.instancesOf(app).map((instance) => instance.slot));
    let slot = 0;
    while (taken.has(slot)) slot += 1;
    await this.startInstance(app, slot);
  }

  /** SIGKILL of `app`'s oldest instance, as a crashed process or a killed pod: no shutdown hooks run. */
  async kill(app: AppName): Promise<void> {
    const instance = this.instancesOf(app)[0];
    this.forget(instance);
    instance.running.process.kill('SIGKILL');
    await instance.running.exited;
  }

  /** Scales `app` in by one, as an orchestrator does: out of rotation first, then SIGTERM. */
  async removeInstance(app: AppName): Promise<void> {
    const instance = this.instancesOf(app)[0];
    this.forget(instance);
    instance.running.process.kill('SIGTERM');
    await instance.running.exited;
  }

  /** Instances of `app` whose process is running. */
  alive(app: AppName): number {
    return this.instancesOf(app).filter(
      ({ running }) => running.process.exitCode === null && running.process.signalCode === null,
    ).length;
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

  /** A command-line tool of an app, run as an operator runs it, against this platform; throws unless it succeeds. */
  cli(app: AppName, script: string, args: string[]): string {
    const result = this.runCli(app, script, args);
    if (result.status !== 0) throw new Error(`${script} failed: ${result.stderr}`);
    return result.stdout;
  }

  /** As cli(), whatever its exit status. */
  runCli(app: AppName, script: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
    return spawnSync(
      process.execPath,
      ['-r', './tools/runtime/register-paths.cjs', `dist/apps/${app}/src/cli/${script}.js`, ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, ...sharedSecrets, ...this.appEnv(app, 0), NODE_ENV: 'test', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
  }

  /** Every line every app instance printed so far. */
  output(): string {
    return [...this.pastOutput, ...this.instances.map((instance) => instance.running.output())].join('\n');
  }

  /** A client of the run's Kafka, signed in as its administrator on the cluster. */
  kafkaClient(clientId: string): Kafka {
    return this.cluster ? this.cluster.client(clientId, 'chaos-admin') : this.broker!.client(clientId);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const instance of this.instances) instance.running.process.kill('SIGTERM');
    await Promise.all(this.instances.map((instance) => instance.running.exited));
    await this.broker?.destroy().catch(() => undefined);
    await this.cluster?.destroy().catch(() => undefined);
    await this.postgres.destroy().catch(() => undefined);
    await this.cardHost?.stop().catch(() => undefined);
  }

  private instancesOf(app: AppName): Instance[] {
    return this.instances.filter((instance) => instance.app === app);
  }

  private async startInstance(app: AppName, slot: number): Promise<void> {
    const instance: Instance = { app, slot, running: spawnApp(app, this.appEnv(app, slot)), inRotation: false };
    this.instances.push(instance);
    // As an orchestrator would: an app that exits on its own (it gives up on a dependency) is
    // restarted, and the run reports it.
    void instance.running.exited.then(({ code, signal }) => {
      if (!this.instances.includes(instance) || this.stopping) return;
      this.crashes.push(`${app} (${signal ?? `exit ${code}`})`);
      this.crashOutput.push(`${app}:\n${instance.running.output().slice(-3000)}`);
      this.forget(instance);
      void this.startInstance(app, slot).catch(() => undefined);
    });
    await waitForReady(portOf(app, slot), instance.running, 120_000);
    instance.inRotation = this.instances.includes(instance);
  }

  private forget(instance: Instance): void {
    instance.inRotation = false;
    this.instances.splice(this.instances.indexOf(instance), 1);
    this.pastOutput.push(instance.running.output());
  }

  /** The cluster as a deployment leaves it: the platform's topics applied and each app's principal granted its own. */
  private async startCluster(cluster: PrivateCluster): Promise<void> {
    await cluster.start();
    const admin = cluster.client('chaos-setup').admin();
    await admin.connect();
    try {
      await applyTopics(admin, allTopics);
      for (const app of platformApps.filter(isKafkaApp)) {
        await admin.createAcls({ acl: kafkajsAcls(app, kafkaAclsOf(app)) });
      }
    } finally {
      await admin.disconnect();
    }
  }

  private appEnv(app: AppName, slot: number): Record<string, string> {
    const kafka: Record<string, string> = this.cluster
      ? {
          KAFKA_BROKERS: this.cluster.brokers,
          KAFKA_TLS: 'true',
          KAFKA_TLS_CA_FILE: this.cluster.caFile,
          KAFKA_SASL_MECHANISM: 'scram-sha-512',
          KAFKA_SASL_USERNAME: app,
          KAFKA_SASL_PASSWORD: this.kafkaPasswords[app],
        }
      : { KAFKA_BROKERS: this.broker!.brokers };
    return {
      PORT: String(portOf(app, slot)),
      DATABASE_URL: this.databaseUrl,
      CARD_NETWORK_SANDBOX_ADDRESS: `127.0.0.1:${cardHostPorts.port}`,
      CARD_NETWORK_SANDBOX_ZONE_PIN_KEY: this.zonePinKey,
      LOG_LEVEL: 'info',
      ...kafka,
      ...this.extraEnv,
    };
  }
}
