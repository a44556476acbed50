import { PlatformEnv } from '@payments/platform-config';

/** outlet-service: outlets, wallets, the double-entry ledger, transfers and sweeps. */
export class Env extends PlatformEnv {
  override SERVICE_NAME = 'outlet-service';
  override PORT = 3003;
}
