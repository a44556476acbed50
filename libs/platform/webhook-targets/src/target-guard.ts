import { lookup as dnsLookup, LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

import * as ipaddr from 'ipaddr.js';

/** Cloud metadata services outside the link-local range (Alibaba, Azure's wire server, AWS over IPv6). */
const metadataAddresses = new Set(
  ['100.100.100.200', '168.63.129.16', 'fd00:ec2::254'].map((address) => ipaddr.parse(address).toNormalizedString()),
);

/**
 * Addresses no webhook may reach, even where private ones are allowed for local development:
 * link-local (cloud instance metadata), the unspecified address (which reaches this host), and
 * known metadata services. Reaching them would let a partner read the platform's own secrets.
 */
export function isNeverAllowed(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.process(address);
  return (
    ['linkLocal', 'unspecified', 'broadcast', 'multicast'].includes(parsed.range()) ||
    metadataAddresses.has(parsed.toNormalizedString())
  );
}

/** Only ordinary public unicast addresses: no loopback, private, link-local, CGNAT, multicast, reserved or metadata. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast' && !isNeverAllowed(address);
}

/** Whether a delivery may connect to `address`: public ones always, private ones where allowed. */
export function isAllowedAddress(address: string, allowPrivate: boolean): boolean {
  return allowPrivate ? !isNeverAllowed(address) : isPublicAddress(address);
}

export class ForbiddenTargetError extends Error {
  constructor(readonly target: string) {
    super(`refusing to deliver to ${target}: not an allowed address`);
    this.name = 'ForbiddenTargetError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for outgoing connections that refuses addresses a delivery may not reach. The
 * socket connects to exactly the address checked here, so a name that resolves differently the
 * second time (DNS rebinding) gains nothing.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((entry) => isAllowedAddress(entry.address, allowPrivate));
      if (allowed.length === 0) return callback(new ForbiddenTargetError(hostname), []);
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/**
 * The ports a delivery to a public address may use: the dispatcher's egress policy opens these
 * and no others (deploy/k8s/base/network-policies.yaml), so a URL on another could never be
 * delivered to. Where private targets are allowed (local development), any port.
 */
export const webhookPorts: readonly number[] = [443, 80];

/** The port a URL connects to: its own, or its scheme's. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Checks what can be checked before connecting: the scheme, the port, and a host that is an IP literal. */
export function assertAllowedUrl(url: string, allowPrivate: boolean): URL {
  const parsed = new URL(url);
  if (!['http:', 'https:'].includes(parsed.protocol)) throw new ForbiddenTargetError(url);
  if (!allowPrivate && !webhookPorts.includes(portOf(parsed))) throw new ForbiddenTargetError(parsed.host);
  const host = hostOf(parsed);
  if (isIP(host) && !isAllowedAddress(host, allowPrivate)) throw new ForbiddenTargetError(host);
  return parsed;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}
