import * as ipaddr from 'ipaddr.js';

/** What every text that is no address counts as: one key, so it cannot be varied to escape a limit. */
export const unreadableAddressKey = 'unreadable-address';

/** `203.0.113.7:51234`, `[2001:db8::1]:51234` or `[2001:db8::1]`, as some proxies write the client into X-Forwarded-For. */
const withPort = /^(?:\[([^\]]+)\](?::\d{1,5})?|([\d.]+):\d{1,5})$/;

function parsed(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ipaddr.isValid(address)) return ipaddr.process(address);
  const match = withPort.exec(address);
  const bare = match?.[1] ?? match?.[2];
  return bare !== undefined && ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined;
}

/**
 * The key a client address is counted under by every per-address limit: an IPv4 address as it
 * is (an IPv4-mapped IPv6 one as its IPv4), an IPv6 address by its /64, the smallest network
 * one subscriber is given, so rotating through the addresses of one's own /64 escapes nothing.
 * Always in the canonical form, so no other spelling of an address counts apart from it.
 */
export function clientAddressKey(address: string | undefined): string {
  const ip = address === undefined ? undefined : parsed(address.trim());
  if (ip === undefined) return unreadableAddressKey;
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
