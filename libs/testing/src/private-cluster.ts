import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { createKafkaClient } from '@payments/platform-kafka';
import { Kafka } from 'kafkajs';

import { BrokerUsers } from './private-broker';
import { eventually } from './test-env';

const run = promisify(execFile);
const script = resolve(__dirname, '../../../deploy/kafka/cluster.sh');

/**
 * A private three-broker cluster (deploy/kafka/cluster.sh), secured as production clusters are:
 * TLS with SASL on every client listener, the ACL authorizer on. For tests of what replication
 * and failing brokers do.
 */
export class PrivateCluster {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'kafka-cluster-'));

  constructor(
    readonly basePort: number,
    private readonly users: BrokerUsers,
  ) {}

  get brokers(): string {
    return [0, 1, 2].map((index) => `127.0.0.1:${this.basePort + 10 * index}`).join(',');
  }

  get caFile(): string {
    return join(this.dataDir, 'tls', 'ca.pem');
  }

  /** Starts the three nodes and waits until each has registered, not only opened its port. */
  async start(): Promise<void> {
    await this.cluster('start');
    await this.untilRegistered([1, 2, 3]);
  }

  /** Stops node 1 to 3: SIGTERM, or SIGKILL when `abruptly`. */
  stopNode(node: number, { abruptly = false } = {}): Promise<void> {
    return this.cluster(abruptly ? 'kill-node' : 'stop-node', String(node));
  }

  async startNode(node: number): Promise<void> {
    await this.cluster('start-node', String(node));
    await this.untilRegistered([node]);
  }

  async destroy(): Promise<void> {
    await this.cluster('stop');
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** A client of the cluster, signed in as `user` (the super user by default) over TLS with SCRAM. */
  client(clientId: string, user = Object.keys(this.users)[0]): Kafka {
    return createKafkaClient({
      brokers: this.brokers.split(','),
      clientId,
      security: {
        ssl: { ca: [readFileSync(this.caFile, 'utf8')] },
        sasl: { mechanism: 'scram-sha-512', username: user, password: this.users[user] },
      },
    });
  }

  /**
   * A node opens its port before the controllers have it as a live broker. Until they do, the
   * cluster reports fewer brokers, and topics created then get fewer copies than declared.
   */
  private async untilRegistered(nodes: number[]): Promise<void> {
    const admin = this.client('private-cluster-ready').admin();
    await admin.connect();
    try {
      await eventually(async () => {
        const { brokers } = await admin.describeCluster().catch(() => ({ brokers: [] }));
        const live = new Set(brokers.map((broker) => broker.nodeId));
        return nodes.every((node) => live.has(node)) ? true : undefined;
      }, 90_000);
    } finally {
      await admin.disconnect();
    }
  }

  private async cluster(...args: string[]): Promise<void> {
    const { KAFKA_BROKERS: _shared, ...rest } = process.env;
    const env = {
      ...rest,
      KAFKA_CLUSTER_PORT: String(this.basePort),
      KAFKA_CLUSTER_DIR: this.dataDir,
      KAFKA_USERS: Object.entries(this.users)
        .map(([name, password]) => `${name}:${password}`)
        .join(','),
    };
    await run('bash', [script, ...args], { env, timeout: 180_000 });
  }
}
