import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const script = resolve(__dirname, '../../../deploy/kafka/kafka.sh');

/**
 * A second real broker on its own ports and data folder, for tests that stop and start
 * Kafka without disturbing the broker every other suite shares.
 */
export class PrivateBroker {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'kafka-private-'));

  constructor(
    readonly port: number,
    private readonly controllerPort = port + 1,
  ) {}

  get brokers(): string {
    return `127.0.0.1:${this.port}`;
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
    };
  }
}
