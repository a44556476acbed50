import * as ipaddr from 'ipaddr.js';
import { lookup as dnsLookup, LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/** Only ordinary public unicast addresses: no loopback, private, link-local (cloud metadata), CGNAT, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

export class ForbiddenTargetError extends Error {
  constructor(readonly target: string) {
    super(`refusing to deliver to ${target}: not a public address`);
    this.name = 'ForbiddenTargetError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for outgoing connections that refuses non-public addresses. The socket connects
 * to exactly the address checked here, so a name that resolves differently the second time
 * (DNS rebinding) gains nothing.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = allowPrivate ? addresses : addresses.filter((entry) => isPublicAddress(entry.address));
      if (allowed.length === 0) return callback(new ForbiddenTargetError(hostname), []);
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/** Checks what can be checked before connecting: the scheme, and a host that is an IP literal. */
export function assertAllowedUrl(url: string, allowPrivate: boolean): URL {
  const parsed = new URL(url);
  if (!['http:', 'https:'].includes(parsed.protocol)) throw new ForbiddenTargetError(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && !isPublicAddress(host)) throw new ForbiddenTargetError(host);
  return parsed;
}
