import { IntSetting, KeyRingSetting, PlatformEnv } from '@payments/platform-config';
import { SandboxPrivateTargetsSetting } from '@payments/platform-webhook-targets';
import { Matches } from 'class-validator';

/** webhook-dispatcher: signed webhook deliveries with retries. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'webhook-dispatcher';
  override PORT: number = 3004;

  /** The gateway's ring (a key ring, docs/operations.md "Rotating keys"): opens the sealed API keys that sign webhooks. */
  @KeyRingSetting() API_KEY_SEALING_KEY: string = '';

  /** Seals the endpoints' signing secrets and the answers of their rolls (a key ring, this app's alone). */
  @KeyRingSetting() WEBHOOK_SECRET_SEALING_KEY: string = '';

  /** Milliseconds to wait after each failed attempt; its length + 1 is the number of attempts. */
  @Matches(/^\d+(,\d+)*$/, { message: 'must be a comma-separated list of milliseconds' })
  WEBHOOK_RETRY_SCHEDULE_MS: string = [60, 300, 1800, 7200, 21_600, 43_200, 86_400, 86_400]
    .map((s) => s * 1000)
    .join(',');

  @IntSetting(100, 60_000) WEBHOOK_TIMEOUT_MS: number = 10_000;

  /** Deliveries in flight at once, across all endpoints, per instance. */
  @IntSetting(1, 1000) WEBHOOK_CONCURRENCY: number = 64;

  /** Deliveries in flight at once to one URL, across instances. */
  @IntSetting(1, 100) WEBHOOK_PER_ENDPOINT_CONCURRENCY: number = 4;

  /** Consecutive failures that open an endpoint's circuit; while open, one probe at a time. */
  @IntSetting(1, 1000) WEBHOOK_CIRCUIT_THRESHOLD: number = 10;

  @IntSetting(100, 3_600_000) WEBHOOK_CIRCUIT_COOLDOWN_MS: number = 60_000;

  @IntSetting(10, 60_000) WEBHOOK_POLL_INTERVAL_MS: number = 500;

  /** Local development only: sandbox businesses may target private addresses (see the setting's rule). */
  @SandboxPrivateTargetsSetting()
  WEBHOOK_SANDBOX_ALLOW_PRIVATE: boolean = false;
}

export function retrySchedule(env: Env): number[] {
  return env.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map(Number);
}
