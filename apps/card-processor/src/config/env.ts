import {
  BooleanSetting,
  DevelopmentKeyRefused,
  IntSetting,
  KeyRingSetting,
  KeySetting,
  PlatformEnv,
} from '@payments/platform-config';
import { PinSecurityModuleSetting } from '@payments/platform-pin-security';
import { IsOptional, Matches } from 'class-validator';

const hostAndPort = /^[^\s:]+:\d{1,5}$/;
const acquirerId = /^\d{1,11}$/;
/** A double-length TDES key (K1K2), as 32 hex characters. */
const doubleLengthKey = /^[0-9A-Fa-f]{32}$/;

/** card-processor: card charges, their verification state machine, POS authorisation. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'card-processor';
  override PORT: number = 3001;

  /** Opens card data sealed by pos-ingest and the gateway, and seals what it keeps (a key ring, the same on every side). */
  @KeyRingSetting() CARD_DATA_KEY: string = '';

  /** The gateway's card fingerprint key: a verification step must come from the charge's card. */
  @KeySetting() CARD_FINGERPRINT_KEY: string = '';

  /**
   * The PIN security module's local master key (32 bytes, base64), the same as pos-ingest's: it
   * opens the terminal PIN keys that come sealed with POS card data. Unset, no PIN block can be
   * translated, and a POS transaction that carries one fails without reaching the network.
   */
  @IsOptional()
  @KeySetting()
  PIN_MASTER_KEY?: string = undefined;

  /** Which PIN security module translates PIN blocks to the zone PIN key: `software` (PIN_MASTER_KEY) is built in. */
  @PinSecurityModuleSetting() PIN_SECURITY_MODULE: string = 'software';

  /**
   * The host sandbox businesses' cards go to (docs/card-network.md). Left at this default,
   * `npm start` and the tests run the development host here.
   */
  @Matches(hostAndPort, { message: 'must be host:port' })
  CARD_NETWORK_SANDBOX_ADDRESS: string = '127.0.0.1:8583';

  @BooleanSetting() CARD_NETWORK_SANDBOX_TLS: boolean = false;

  @Matches(acquirerId, { message: 'must be 1 to 11 digits' })
  CARD_NETWORK_SANDBOX_ACQUIRER_ID: string = '111129';

  /** The key PIN blocks travel under to the sandbox host (DE52). */
  @IsOptional()
  @Matches(doubleLengthKey, { message: 'must be a double-length TDES key as 32 hex characters' })
  @DevelopmentKeyRefused('hex')
  CARD_NETWORK_SANDBOX_ZONE_PIN_KEY?: string = undefined;

  /** The switch live businesses' cards go to; unset, live businesses are refused card payments. */
  @IsOptional()
  @Matches(hostAndPort, { message: 'must be host:port' })
  CARD_NETWORK_LIVE_ADDRESS?: string = undefined;

  @BooleanSetting() CARD_NETWORK_LIVE_TLS: boolean = true;

  @IsOptional()
  @Matches(acquirerId, { message: 'must be 1 to 11 digits' })
  CARD_NETWORK_LIVE_ACQUIRER_ID?: string = undefined;

  @IsOptional()
  @Matches(doubleLengthKey, { message: 'must be a double-length TDES key as 32 hex characters' })
  @DevelopmentKeyRefused('hex')
  CARD_NETWORK_LIVE_ZONE_PIN_KEY?: string = undefined;

  /** PEM file of the CA a TLS host's certificate must chain to; unset, the system's CAs. */
  @IsOptional()
  CARD_NETWORK_TLS_CA_FILE?: string = undefined;

  /** How long a 0200 waits for its 0210 before its outcome is unknown and it is reversed. */
  @IntSetting(1000, 60_000) CARD_NETWORK_TIMEOUT_MS: number = 10_000;

  /** Persistent connections to each host. */
  @IntSetting(1, 16) CARD_NETWORK_CONNECTIONS: number = 2;

  /** Requests waiting for their answers on each host, beyond which new ones are refused. */
  @IntSetting(1, 10_000) CARD_NETWORK_MAX_IN_FLIGHT: number = 256;

  /** How often an unacknowledged reversal is repeated (0421). */
  @IntSetting(100, 300_000) CARD_NETWORK_REVERSAL_INTERVAL_MS: number = 30_000;
}
