/**
 * A quota of requests per fixed window, as the IETF RateLimit header fields describe one
 * (draft-ietf-httpapi-ratelimit-headers): `quota` requests in each window of `windowSeconds`,
 * counted per key (an API key, a terminal, a client address).
 */
export interface RateLimitPolicy {
  /** Its name in the RateLimit headers, the metrics and operators' overrides: partner-api, terminal, hosted-page. */
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

/** What one request was told. `remaining` and `resetSeconds` are what its headers say. */
export interface RateDecision {
  readonly policy: RateLimitPolicy;
  readonly allowed: boolean;
  readonly remaining: number;
  readonly resetSeconds: number;
}

/** Where headers go: a Fastify reply, or anything with its `header()`. */
export interface HeaderSink {
  header(name: string, value: string | number): unknown;
}

const policyText = /^(\d{1,9})\/(\d{1,6})s$/;

/**
 * A policy from its setting: `6000/60s` is 6,000 requests a minute; `off` is none. Settings are
 * checked when the app starts (`RateLimitSetting`), so a bad text here is a programming error.
 */
export function parsePolicy(name: string, text: string): RateLimitPolicy | undefined {
  if (text === 'off') return undefined;
  const match = policyText.exec(text);
  const quota = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (!match || quota < 1 || windowSeconds < 1) {
    throw new Error(`rate limit ${name}: expected <requests>/<seconds>s or off, not ${text}`);
  }
  return { name, quota, windowSeconds };
}

export function isPolicyText(text: unknown): boolean {
  if (text === 'off') return true;
  const match = typeof text === 'string' ? policyText.exec(text) : null;
  return !!match && Number(match[1]) >= 1 && Number(match[2]) >= 1;
}

/**
 * The draft's two fields, on every answer a policy covers: `RateLimit-Policy` states the quota
 * and window, `RateLimit` what is left and in how many seconds the window starts again.
 * A refusal also carries `Retry-After` (RFC 9110), which clients have long understood.
 */
export function writeRateLimitHeaders(reply: HeaderSink, decision: RateDecision): void {
  const { policy } = decision;
  reply.header('RateLimit-Policy', `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`);
  reply.header('RateLimit', `"${policy.name}";r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!decision.allowed) reply.header('Retry-After', decision.resetSeconds);
}
