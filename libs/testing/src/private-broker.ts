import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { allTopics } from '@payments/contracts';
import { applyTopics, createKafkaClient } from '@payments/platform-kafka';
import { Kafka } from 'kafkajs';

const run = promisify(execFile);
const script = resolve(__dirname, '../../../deploy/kafka/kafka.sh');

/** A secured broker's users, by name with their passwords; the first is the super user. */
export type BrokerUsers = Record<string, string>;

/**
 * A second real broker on its own ports and data folder, for tests that stop and start
 * Kafka without disturbing the broker every other suite shares. With `users`, it is secured as
 * clusters are: TLS with SASL (SCRAM-SHA-512 and PLAIN) and the ACL authorizer on (kafka.sh).
 */
export class PrivateBroker {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'kafka-private-'));

  constructor(
    readonly port: number,
    private readonly controllerPort = port + 1,
    private readonly users?: BrokerUsers,
  ) {}

  get brokers(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The CA that signed a secured broker's certificate, PEM. */
  get caFile(): string {
    return join(this.dataDir, 'tls', 'ca.pem');
  }

  /** Starts the broker and, unless told not to, gives it the platform's topics as a deployment's first step would. */
  async start({ topics = true } = {}): Promise<void> {
    await run('bash', [script, 'start'], { env: this.env(), timeout: 120_000 });
    if (!topics) return;
    const admin = this.client('private-broker-topics').admin();
    await admin.connect();
    try {
      await applyTopics(admin, allTopics);
    } finally {
      await admin.disconnect();
    }
  }

  /** A client of this broker; a secured one's signs in as `user` (its super user unless named), trusting its CA. */
  client(clientId: string, user = Object.keys(this.users ?? {})[0]): Kafka {
    const security = this.users
      ? {
          ssl: { ca: [readFileSync(this.caFile, 'utf8')] },
          sasl: { mechanism: 'scram-sha-512' as const, username: user, password: this.users[user] },
        }
      : {};
    return createKafkaClient({ brokers: [this.brokers], clientId, security });
  }

  async stop(): Promise<void> {
    await run('bash', [script, 'stop'], { env: this.env(), timeout: 60_000 });
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private env(): NodeJS.ProcessEnv {
    const { KAFKA_BROKERS: _shared, ...rest } = process.env;
    return {
      ...rest,
      KAFKA_PORT: String(this.port),
      KAFKA_CONTROLLER_PORT: String(this.controllerPort),
      KAFKA_DATA_DIR: this.dataDir,
      KAFKA_HEAP: '384m',
      ...(this.users
        ? {
            KAFKA_SECURE: 'true',
            KAFKA_INTERNAL_PORT: String(this.controllerPort + 1),
            KAFKA_USERS: Object.entries(this.users)
              .map(([name, password]) => `${name}:${password}`)
              .join(','),
          }
        : {}),
    };
  }
}
