import { PlatformEnv } from '@payments/platform-config';
import { IsInt, Matches, Max, Min } from 'class-validator';

/** checkout-gateway: partner API, credentials, checkout transactions, hosted page. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'checkout-gateway';
  override PORT: number = 3000;

  /** 32 random bytes, base64: seals POS keys and API keys at rest and on Kafka. */
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes, base64-encoded (openssl rand -base64 32)' })
  DATA_ENCRYPTION_KEY: string = '';

  /** How long a request waits for outlet-service or webhook-dispatcher before answering 503. */
  @IsInt()
  @Min(500)
  @Max(60_000)
  SERVICE_TIMEOUT_MS: number = 8000;
}
