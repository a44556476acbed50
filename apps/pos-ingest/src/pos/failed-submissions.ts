import { Injectable } from '@nestjs/common';
import { HeaderSink, parsePolicy, RateLimitPolicy, RateLimits } from '@payments/platform-rate-limit';

import { Env } from '../config/env';

/**
 * Submissions that prove nothing: a serial number that is not registered, or data that does not
 * decrypt under the terminal's key. They are counted per client address, never per serial: a
 * serial is printed on the device, so anyone can name it, and a count anyone can spend must not
 * be one that shuts the terminal out. Only failures are refused once an address has spent its
 * quota: a terminal behind the same address (a carrier's NAT puts many behind one) still has
 * its submissions accepted. Each refusal costs a cached lookup and one decryption attempt; the
 * limiter answers a spent window without asking its store.
 */
@Injectable()
export class FailedSubmissions {
  private readonly policy?: RateLimitPolicy;

  constructor(
    private readonly rateLimits: RateLimits,
    env: Env,
  ) {
    this.policy = parsePolicy('pos-failures', env.RATE_LIMIT_POS_FAILURES);
  }

  /** Counts one failed submission from `address`; beyond the quota, throws 429 RATE_LIMITED. */
  count(reply: HeaderSink, address: string): Promise<void> {
    return this.rateLimits.admit(reply, this.policy, address);
  }
}
