import fc from 'fast-check';

import { clientAddressKey, unreadableAddressKey } from './client-address';

const hextet = fc.integer({ min: 0, max: 0xffff });
const quad = fc.tuple(hextet, hextet, hextet, hextet);

/** An IPv6 address from its eight hextets, written in full or with its longest run of zeros compressed. */
function written(hextets: number[], compressed: boolean): string {
  const full = hextets.map((part) => part.toString(16)).join(':');
  return compressed ? full.replace(/(^|:)0(:0)+(:|$)/, '::') : full;
}

describe('clientAddressKey', () => {
  it('counts any two addresses of one /64 as one client', () => {
    fc.assert(
      fc.property(quad, quad, quad, fc.boolean(), fc.boolean(), (prefix, first, second, compressOne, compressTwo) => {
        const one = clientAddressKey(written([...prefix, ...first], compressOne));
        const two = clientAddressKey(written([...prefix, ...second], compressTwo));
        return one === two && one.endsWith('/64');
      }),
    );
  });

  it('counts addresses of different /64s apart', () => {
    fc.assert(
      fc.property(quad, quad, quad, (prefix, other, host) => {
        fc.pre(prefix.some((part, i) => part !== other[i]));
        return (
          clientAddressKey(written([...prefix, ...host], true)) !== clientAddressKey(written([...other, ...host], true))
        );
      }),
    );
  });

  it('keys an IPv4 address as it is, and an IPv4-mapped IPv6 address as its IPv4', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        const canonical = address
          .split('.')
          .map((octet) => String(Number(octet)))
          .join('.');
        return clientAddressKey(address) === canonical && clientAddressKey(`::ffff:${address}`) === canonical;
      }),
    );
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('203.0.113.8')).toBe('203.0.113.8');
  });

  it('writes the /64 canonically, whatever the spelling', () => {
    expect(clientAddressKey('2001:DB8:1:2:0:0:0:A')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80::/64');
  });

  it('reads the address of a proxy entry that carries a port', () => {
    expect(clientAddressKey('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(clientAddressKey('[2001:db8:1:2::a]:443')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('[2001:db8:1:2::b]')).toBe('2001:db8:1:2::/64');
  });

  it('counts every text that is no address under one key, which cannot be varied to escape a limit', () => {
    for (const text of ['unknown', 'a'.repeat(5000), '', '999.1.1.1', '[nope]:80', undefined]) {
      expect(clientAddressKey(text)).toBe(unreadableAddressKey);
    }
  });
});
