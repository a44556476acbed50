import { IsBoolean, IsInt, Max, Min } from 'class-validator';

import { IsKoboAmount } from '../../validation/kobo-amount';

/** PUT /outlets/sweep-settings: move collection balances to the settlement wallet automatically. */
export class SweepSettingsRequest {
  @IsBoolean()
  enabled!: boolean;

  /** Sweep a collection wallet once its available balance reaches this many kobo. */
  @IsKoboAmount()
  threshold!: string;

  /** Seconds between sweeps of the same business, 60 to 86400. */
  @IsInt()
  @Min(60)
  @Max(86_400)
  intervalSeconds!: number;
}

export class SweepSettingsResponse {
  @IsBoolean()
  enabled!: boolean;

  @IsKoboAmount()
  threshold!: string;

  @IsInt()
  intervalSeconds!: number;
}
