import { BooleanSetting, IntSetting, KeyRingSetting, KeySetting, PlatformEnv } from '@payments/platform-config';
import { RateLimitSetting } from '@payments/platform-rate-limit';
import { SandboxPrivateTargetsSetting } from '@payments/platform-webhook-targets';
import { IsUrl } from 'class-validator';

/** checkout-gateway: partner API, credentials, checkout transactions, hosted page. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'checkout-gateway';
  override PORT: number = 3000;

  /*
   * Each key ring below lists 32-byte keys (base64, comma-separated), the first the one that
   * seals; docs/operations.md "Rotating keys" says how one rotates.
   */

  /** Seals partners' API keys, at rest and on Kafka; webhook-dispatcher holds the same ring. */
  @KeyRingSetting() API_KEY_SEALING_KEY: string = '';

  /** Seals businesses' POS encryption keys, at rest and on Kafka; pos-ingest holds the same ring. */
  @KeyRingSetting() POS_KEY_SEALING_KEY: string = '';

  /** Seals the listings' page cursors: a cursor sealed under a key the ring has dropped answers 422. */
  @KeyRingSetting() PAGE_CURSOR_KEY: string = '';

  /** Seals dashboard members' two-factor (TOTP) secrets, each bound to its member; no other app holds it. */
  @KeyRingSetting() MEMBER_SECRET_SEALING_KEY: string = '';

  /** Seals card data for the hop to card-processor; card-processor holds the same ring. */
  @KeyRingSetting() CARD_DATA_KEY: string = '';

  /**
   * Keys the fingerprints that tell the same card apart without its number (card-testing counts,
   * and card-processor's check that a verification step is for the charge's card): card-processor
   * holds the same key. One key, not a ring: a new one makes every card look new.
   */
  @KeySetting() CARD_FINGERPRINT_KEY: string = '';

  /** The hosted checkout page; checkout links are this URL with ?checkoutReference=. */
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  CHECKOUT_URL: string = 'http://127.0.0.1:3000/checkout';

  /** Minutes a checkout stays payable before it ends FAILED. */
  @IntSetting(1, 7 * 24 * 60) CHECKOUT_TTL_MINUTES: number = 30;

  /** How often expired checkouts are closed (and checkout.failed sent). */
  @IntSetting(100, 600_000) CHECKOUT_EXPIRY_POLL_MS: number = 10_000;

  /** How often the key audit trail notes rolled key pairs whose grace has ended. */
  @IntSetting(100, 600_000) KEY_EXPIRY_POLL_MS: number = 10_000;

  /**
   * Whether live businesses may pay by card: set it where card-processor has a live card
   * network (CARD_NETWORK_LIVE_ADDRESS). Off, their card payments are refused before a charge exists.
   */
  @BooleanSetting() LIVE_CARD_PAYMENTS: boolean = false;

  /** How long a request waits for card-processor, outlet-service or webhook-dispatcher before answering 503. */
  @IntSetting(500, 60_000) SERVICE_TIMEOUT_MS: number = 8000;

  /**
   * As webhook-dispatcher's (set both alike): whether sandbox businesses' webhook and callback
   * URLs may name private addresses, which the gateway refuses when they are set if not.
   */
  @SandboxPrivateTargetsSetting()
  WEBHOOK_SANDBOX_ALLOW_PRIVATE: boolean = false;

  /**
   * Requests each API key may make to the partner routes, as `<requests>/<seconds>s` (or `off`);
   * operators raise or lower it per business with `npm run rate-limit:set` (docs/rate-limits.md).
   */
  @RateLimitSetting() RATE_LIMIT_PARTNER_API: string = '6000/60s';

  /** Requests each client address may make to the hosted page and its session routes. */
  @RateLimitSetting() RATE_LIMIT_HOSTED_PAGE: string = '1200/60s';

  /**
   * Card testing (docs/checkout.md): attempts one card may make across every business, as
   * `<attempts>/<seconds>s` over a sliding window, or `off`. The sandbox's test cards are not counted.
   */
  @RateLimitSetting() CARD_TESTING_PER_CARD: string = '5/900s';

  /** Different cards one payer address may try (hosted page attempts, whose address is the payer's). */
  @RateLimitSetting() CARD_TESTING_PER_ADDRESS: string = '10/3600s';

  /** Declined card attempts a business may have before further attempts are refused for the window. */
  @RateLimitSetting() CARD_TESTING_PER_BUSINESS: string = '25/600s';
}
