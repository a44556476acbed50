import { PlatformEnv } from '@payments/platform-config';
import { IsInt, Matches, Max, Min } from 'class-validator';

const base64Key = /^[A-Za-z0-9+/]{43}=$/;
const keyMessage = 'must be 32 bytes, base64-encoded (openssl rand -base64 32)';

/** pos-ingest: accepts encrypted POS submissions; stateless and scaled on its own. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'pos-ingest';
  override PORT: number = 3002;
  /** The gateway's key: opens the sealed POS keys of integrators. */
  @Matches(base64Key, { message: keyMessage })
  DATA_ENCRYPTION_KEY: string = '';

  /** Seals card data on the POS topic; card-processor holds the same key. */
  @Matches(base64Key, { message: keyMessage })
  CARD_DATA_KEY: string = '';

  /**
   * Derives each transaction's reference from the transaction (a keyed hash), the same in every
   * instance. Never change it casually: under a new key a resubmitted transaction gets a new
   * reference, and card-processor would take it for a second transaction.
   */
  @Matches(base64Key, { message: keyMessage })
  POS_REFERENCE_KEY: string = '';

  /** How long a terminal and its key stay cached; a re-registered terminal is seen within this time. */
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  TERMINAL_CACHE_TTL_MS: number = 60_000;

  /** Transactions waiting for Kafka's acknowledgement at once; beyond it, 503 at once rather than unbounded memory. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  POS_MAX_IN_FLIGHT: number = 256;

  /** How long a submission waits for the broker's acknowledgement before answering 503. */
  @IsInt()
  @Min(100)
  @Max(60_000)
  POS_PUBLISH_TIMEOUT_MS: number = 5000;
}
