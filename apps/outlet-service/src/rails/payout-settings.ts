import { Injectable } from '@nestjs/common';

import { Env } from '../config/env';

/**
 * Sandbox bank rail behaviour. Payouts to these account numbers fail, so integrators can
 * exercise bankTransfer.failed; every other payout succeeds.
 */
export const failingSandboxAccounts = ['0000000000', '0123456789'] as const;

@Injectable()
export class PayoutSettings {
  readonly settleDelayMs: number;
  readonly pollIntervalMs: number;

  constructor(env: Env) {
    this.settleDelayMs = env.PAYOUT_SETTLE_DELAY_MS;
    this.pollIntervalMs = env.PAYOUT_POLL_INTERVAL_MS;
  }

  fails(accountNumber: string): boolean {
    return (failingSandboxAccounts as readonly string[]).includes(accountNumber);
  }
}
