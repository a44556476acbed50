import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { createKafkaClient } from '@payments/platform-kafka';
import { Kafka } from 'kafkajs';

import { BrokerUsers } from './private-broker';

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

  start(): Promise<void> {
    return this.cluster('start');
  }

  /** Stops node 1 to 3: SIGTERM, or SIGKILL when `abruptly`. */
  stopNode(node: number, { abruptly = false } = {}): Promise<void> {
    return this.cluster(abruptly ? 'kill-node' : 'stop-node', String(node));
  }

  startNode(node: number): Promise<void> {
    return this.cluster('start-node', String(node));
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
