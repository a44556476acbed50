import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { BooleanSetting } from '@payments/platform-config';
import { apiError } from '@payments/platform-envelope';
import { Equals, ValidateIf } from 'class-validator';

import { hostOf, isAllowedAddress, portOf, webhookPorts } from './target-guard';

/** How far a URL's host is looked at before it is accepted. */
export type HostCheck =
  /** Resolved, and refused when it resolves to no address (PUT /webhooks/endpoint). */
  | 'resolved'
  /** Resolved, but a name that does not resolve yet is accepted: the sender checks again (onboarding). */
  | 'resolved-if-it-can-be'
  /** Only an IP literal or localhost, without a DNS query on the request's path (a checkout's callBackUrl). */
  | 'literal';

/**
 * Why a business's webhooks or callbacks could never be delivered to `url`, or null: the rule
 * the sender applies to every connection, told when the URL is set. Live businesses need https
 * and public addresses; sandbox ones may use private addresses where a developer allowed them,
 * never link-local or metadata ones.
 */
export async function webhookUrlRefusal(
  url: string,
  { live, allowPrivate, check }: { live: boolean; allowPrivate: boolean; check: HostCheck },
): Promise<string | null> {
  if (!URL.canParse(url)) return 'Not a URL a webhook could be sent to';
  const parsed = new URL(url);
  if (live && parsed.protocol !== 'https:') return 'Live webhook URLs must use https';
  if (!['http:', 'https:'].includes(parsed.protocol)) return 'Webhook URLs must use https or http';
  // Told after what the address says, when that refuses the URL as well: it says more.
  const portRefusal =
    !(!live && allowPrivate) && !webhookPorts.includes(portOf(parsed))
      ? `Webhook URLs must use port ${webhookPorts.join(' or ')}, not ${portOf(parsed)}`
      : null;
  const host = hostOf(parsed);
  const literal = isIP(host) ? host : host.toLowerCase() === 'localhost' ? '127.0.0.1' : null;
  if (literal === null && check === 'literal') return portRefusal;
  const addresses =
    literal !== null ? [literal] : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (addresses.length === 0) return check === 'resolved' ? `${parsed.hostname} does not resolve` : portRefusal;
  if (!addresses.every((address) => isAllowedAddress(address, !live && allowPrivate))) {
    return `${parsed.hostname} resolves to a private, loopback, link-local or metadata address`;
  }
  return portRefusal;
}

/** Refuses `url` with 422 WEBHOOK_URL_NOT_ALLOWED, as PUT /webhooks/endpoint does, when it could never be delivered to. */
export async function assertWebhookUrlAllowed(
  url: string,
  policy: Parameters<typeof webhookUrlRefusal>[1],
): Promise<void> {
  const refusal = await webhookUrlRefusal(url, policy);
  if (refusal !== null) throw apiError('WEBHOOK_URL_NOT_ALLOWED', refusal);
}

/**
 * WEBHOOK_SANDBOX_ALLOW_PRIVATE, read by every app that sets or delivers to webhook URLs. Local
 * development only: sandbox businesses may then target loopback and private addresses (a
 * receiver on a laptop). Never live businesses, never link-local or metadata addresses, and
 * refused outright in production, where it would let any sandbox partner probe the network.
 */
export function SandboxPrivateTargetsSetting(): PropertyDecorator {
  return (target, key) => {
    BooleanSetting()(target, key);
    ValidateIf((env: { NODE_ENV?: string }) => env.NODE_ENV === 'production')(target, key);
    Equals(false, { message: 'must be false when NODE_ENV is production' })(target, key);
  };
}
