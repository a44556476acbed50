import { IntSetting, PlatformEnv } from '@payments/platform-config';

/** outlet-service: outlets, wallets, the double-entry ledger, transfers and sweeps. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'outlet-service';
  override PORT: number = 3003;

  /** How often the sweeper looks for businesses whose sweep is due. */
  @IntSetting(100, 600_000) SWEEP_POLL_INTERVAL_MS: number = 5000;

  /** Sandbox bank rail: how long a payout stays PROCESSING before it settles. */
  @IntSetting(0, 3_600_000) PAYOUT_SETTLE_DELAY_MS: number = 2000;

  @IntSetting(50, 60_000) PAYOUT_POLL_INTERVAL_MS: number = 500;
}
