import { BooleanSetting, IntSetting, KeyRingSetting, KeySetting, PlatformEnv } from '@payments/platform-config';
import { PinSecurityModuleSetting } from '@payments/platform-pin-security';
import { RateLimitSetting } from '@payments/platform-rate-limit';
import { IsOptional } from 'class-validator';

/** pos-ingest: accepts encrypted POS submissions; stateless and scaled on its own. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'pos-ingest';
  override PORT: number = 3002;
  /**
   * Off: nothing below the POS handler logs, its request and error lines name the request id
   * themselves, and on Node 20 AsyncLocalStorage would cost every submission's promises.
   */
  override LOG_REQUEST_CONTEXT: boolean = false;
  /** The gateway's ring (a key ring, docs/operations.md "Rotating keys"): opens the sealed POS keys of integrators. */
  @KeyRingSetting() POS_KEY_SEALING_KEY: string = '';

  /** Seals card data on the POS topic (a key ring); card-processor holds the same ring. */
  @KeyRingSetting() CARD_DATA_KEY: string = '';

  /**
   * The PIN security module's local master key (32 bytes, base64), the same as card-processor's:
   * `terminal:register` issues each terminal a PIN key wrapped under it. Unset, terminals are
   * registered without one, and their PIN blocks cannot be verified.
   */
  @IsOptional()
  @KeySetting()
  PIN_MASTER_KEY?: string = undefined;

  /** Which PIN security module issues terminal PIN keys: `software` (PIN_MASTER_KEY) is the one built in. */
  @PinSecurityModuleSetting() PIN_SECURITY_MODULE: string = 'software';

  /**
   * Whether live businesses' terminals may take cards: set it where card-processor has a live
   * card network (CARD_NETWORK_LIVE_ADDRESS). Off, their submissions are refused at once.
   */
  @BooleanSetting() LIVE_CARD_PAYMENTS: boolean = false;

  /**
   * Derives each transaction's reference from the transaction (a keyed hash), the same in every
   * instance. Never change it casually: under a new key a resubmitted transaction gets a new
   * reference, and card-processor would take it for a second transaction.
   */
  @KeySetting() POS_REFERENCE_KEY: string = '';

  /** How long a terminal and its key stay cached; a re-registered terminal is seen within this time. */
  @IntSetting(0, 3_600_000) TERMINAL_CACHE_TTL_MS: number = 60_000;

  /** Transactions waiting for Kafka's acknowledgement at once; beyond it, 503 at once rather than unbounded memory. */
  @IntSetting(1, 10_000) POS_MAX_IN_FLIGHT: number = 256;

  /** How long a submission waits for the broker's acknowledgement before answering 503. */
  @IntSetting(100, 60_000) POS_PUBLISH_TIMEOUT_MS: number = 5000;

  /**
   * Submissions each terminal serial may make, as `<requests>/<seconds>s` (or `off`); operators
   * change it per business with `npm run rate-limit:set` (docs/rate-limits.md).
   */
  @RateLimitSetting() RATE_LIMIT_TERMINAL: string = '120/60s';

  /**
   * Failed submissions (a serial number not registered, data that does not decrypt) each client
   * address may make, as `<requests>/<seconds>s` (or `off`); beyond it, its submissions are
   * refused before they are decrypted. Generous: a till with a stale key retries far less.
   */
  @RateLimitSetting() RATE_LIMIT_POS_FAILURES: string = '60/60s';
}
