import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

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

  async start(): Promise<void> {
    await run('bash', [script, 'start'], { env: this.env(), timeout: 120_000 });
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
