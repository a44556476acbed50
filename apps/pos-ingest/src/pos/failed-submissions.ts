import { Injectable } from '@nestjs/common';
import { DomainError } from '@payments/platform-envelope';
import { HeaderSink, parsePolicy, RateLimitPolicy, RateLimits } from '@payments/platform-rate-limit';
import { LRUCache } from 'lru-cache';

import { Env } from '../config/env';

/**
 * Submissions that prove nothing: a serial number that is not registered, or data that does not
 * decrypt under the terminal's key. They are counted per client address, never per serial: a
 * serial is printed on the device, so anyone can name it, and a count anyone can spend must not
 * be one that shuts the terminal out. Once an address has spent its quota, this instance refuses
 * its submissions before looking them up or decrypting them (a decryption costs more than the
 * rest of a refusal), so a flood of junk costs a map lookup until its window ends.
 */
@Injectable()
export class FailedSubmissions {
  private readonly policy?: RateLimitPolicy;
  /** Addresses that spent their quota, with the end of that window (epoch ms). */
  private readonly spent = new LRUCache<string, number>({ max: 100_000 });

  constructor(
    private readonly rateLimits: RateLimits,
    env: Env,
  ) {
    this.policy = parsePolicy('pos-failures', env.RATE_LIMIT_POS_FAILURES);
  }

  /** Throws 429 RATE_LIMITED when `address` has spent its quota of failures in this window. */
  async refuseIfSpent(reply: HeaderSink, address: string, now = Date.now()): Promise<void> {
    if ((this.spent.get(address) ?? 0) <= now) return;
    // The limiter knows the window is spent too, and refuses without asking its store.
    await this.count(reply, address, now);
  }

  /** Counts one failed submission from `address`; beyond the quota, throws 429 RATE_LIMITED. */
  async count(reply: HeaderSink, address: string, now = Date.now()): Promise<void> {
    try {
      await this.rateLimits.admit(reply, this.policy, address);
    } catch (error) {
      if (this.policy && error instanceof DomainError && error.code === 'RATE_LIMITED') {
        const windowMs = this.policy.windowSeconds * 1000;
        this.spent.set(address, (Math.floor(now / windowMs) + 1) * windowMs);
      }
      throw error;
    }
  }
}
