import { PlatformEnv } from '@payments/platform-config';
import { Transform } from 'class-transformer';
import { Equals, IsIn, IsInt, Matches, Max, Min, ValidateIf } from 'class-validator';

/** webhook-dispatcher: signed webhook deliveries with retries. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'webhook-dispatcher';
  override PORT: number = 3004;

  /** Same key as the gateway's: opens the sealed API keys that sign webhooks. */
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes, base64-encoded (openssl rand -base64 32)' })
  DATA_ENCRYPTION_KEY: string = '';

  /** Milliseconds to wait after each failed attempt; its length + 1 is the number of attempts. */
  @Matches(/^\d+(,\d+)*$/, { message: 'must be a comma-separated list of milliseconds' })
  WEBHOOK_RETRY_SCHEDULE_MS: string = [60, 300, 1800, 7200, 21_600, 43_200, 86_400, 86_400]
    .map((s) => s * 1000)
    .join(',');

  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS: number = 10_000;

  /** Deliveries in flight at once, across all endpoints, per instance. */
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY: number = 64;

  /** Deliveries in flight at once to one URL, across instances. */
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_PER_ENDPOINT_CONCURRENCY: number = 4;

  /** Consecutive failures that open an endpoint's circuit; while open, one probe at a time. */
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CIRCUIT_THRESHOLD: number = 10;

  @IsInt()
  @Min(100)
  @Max(3_600_000)
  WEBHOOK_CIRCUIT_COOLDOWN_MS: number = 60_000;

  @IsInt()
  @Min(10)
  @Max(60_000)
  WEBHOOK_POLL_INTERVAL_MS: number = 500;

  /**
   * Local development only: sandbox businesses may target loopback and private addresses (a
   * receiver on a laptop). Never live businesses, never link-local or metadata addresses, and
   * refused outright in production, where it would let any sandbox partner probe the network.
   */
  @IsIn([true, false])
  @Transform(({ obj, key }) => obj[key] === true || obj[key] === 'true')
  @ValidateIf((env: Env) => env.NODE_ENV === 'production')
  @Equals(false, { message: 'must be false when NODE_ENV is production' })
  WEBHOOK_SANDBOX_ALLOW_PRIVATE: boolean = false;
}

export function retrySchedule(env: Env): number[] {
  return env.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map(Number);
}
