import { PlatformEnv } from '@payments/platform-config';

/** outlet-service: outlets, wallets, the double-entry ledger, transfers and sweeps. */
export class Env extends PlatformEnv {
  override SERVICE_NAME: string = 'outlet-service';
  override PORT: number = 3003;
}
