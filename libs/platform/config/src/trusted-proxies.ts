import { ValidateBy } from 'class-validator';
import * as ipaddr from 'ipaddr.js';

import { InvalidEnvironmentError } from './load-env';

/** proxy-addr's names for address ranges, which TRUSTED_PROXIES may use beside addresses and CIDRs. */
const rangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Outside production, unless set: this machine and private networks, where a laptop's or CI's proxy runs. */
export const developmentTrustedProxies = ['loopback', 'linklocal', 'uniquelocal'];

/** The settings TRUSTED_PROXIES is read with. */
export interface ProxySettings {
  NODE_ENV: string;
  TRUSTED_PROXIES?: string;
}

const entriesOf = (text: string) => text.split(',').map((entry) => entry.trim());

function isProxyEntry(entry: string): boolean {
  if (rangeNames.has(entry) || ipaddr.isValid(entry)) return true;
  // A /0 would trust every caller, which proxy-addr refuses too.
  return ipaddr.isValidCIDR(entry) && ipaddr.parseCIDR(entry)[1] > 0;
}

/** `none`, or a comma-separated list of proxy addresses, CIDRs and range names. */
export function isTrustedProxiesText(value: unknown): boolean {
  return typeof value === 'string' && (value.trim() === 'none' || entriesOf(value).every(isProxyEntry));
}

/** An env setting naming the proxies whose X-Forwarded-For is believed. */
export function TrustedProxiesSetting(): PropertyDecorator {
  return ValidateBy({
    name: 'trustedProxies',
    validator: {
      validate: isTrustedProxiesText,
      defaultMessage: () =>
        '$property must be none, or a comma-separated list of addresses, CIDRs (not /0), loopback, linklocal or uniquelocal',
    },
  });
}

/**
 * The peers whose X-Forwarded-For the app believes, as Fastify's `trustProxy` takes them; none
 * for `none`. Production has no default: one that trusted private networks would believe a load
 * balancer that passes on a client's own X-Forwarded-For (the client then names its address),
 * and count every customer as one address behind one that rewrites sources to its nodes. An app
 * taking requests calls this at start; the error stops it, naming the setting.
 */
export function trustedProxies(env: ProxySettings): string[] {
  if (env.TRUSTED_PROXIES === undefined) {
    if (env.NODE_ENV !== 'production') return developmentTrustedProxies;
    throw new InvalidEnvironmentError([
      'TRUSTED_PROXIES: is required in production: the addresses or CIDRs of the proxies in front of the app ' +
        '(its ingress or load balancer), or none when clients connect to it directly (docs/deploy.md)',
    ]);
  }
  return env.TRUSTED_PROXIES.trim() === 'none' ? [] : entriesOf(env.TRUSTED_PROXIES);
}
