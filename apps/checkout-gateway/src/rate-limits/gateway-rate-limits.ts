import { Injectable } from '@nestjs/common';
import { hashSecret } from '@payments/platform-crypto';
import { HeaderSink, parsePolicy, RateLimitPolicy, RateLimits } from '@payments/platform-rate-limit';

import { Env } from '../config/env';

/**
 * What the partner-api limit counts a key pair by: its business and the key's id, the start of
 * the key's hash in `business_keys.api_key_hash`. Never the key itself: the key signs the
 * partner's webhooks, and the counts are a table anyone with a dump can read.
 */
export function partnerKeyId(businessId: string, apiKey: string): string {
  return `${businessId}:${hashSecret(apiKey).slice(0, 16)}`;
}

/** The gateway's two limits: per API key on the partner routes, per client address on the hosted page. */
@Injectable()
export class GatewayRateLimits {
  private readonly partnerApi?: RateLimitPolicy;
  private readonly hostedPage?: RateLimitPolicy;

  constructor(
    private readonly limits: RateLimits,
    env: Env,
  ) {
    this.partnerApi = parsePolicy('partner-api', env.RATE_LIMIT_PARTNER_API);
    this.hostedPage = parsePolicy('hosted-page', env.RATE_LIMIT_HOSTED_PAGE);
  }

  /** Counts a partner request against its API key, under its business's override if it has one. */
  admitPartner(reply: HeaderSink, apiKey: string, businessId: string): Promise<void> {
    return this.limits.admit(reply, this.partnerApi, partnerKeyId(businessId, apiKey), businessId);
  }

  /** Counts a hosted-page request against the address it came from (behind TRUSTED_PROXIES). */
  admitPageVisitor(reply: HeaderSink, clientAddress: string): Promise<void> {
    return this.limits.admit(reply, this.hostedPage, clientAddress);
  }
}
