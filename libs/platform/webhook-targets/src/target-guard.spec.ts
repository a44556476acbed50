import { LookupAddress } from 'node:dns';

import { assertAllowedUrl, ForbiddenTargetError, guardedLookup, isPublicAddress } from './target-guard';
import { webhookUrlRefusal } from './webhook-url-policy';

function resolveWith(allowPrivate: boolean, hostname: string): Promise<{ error: Error | null; addresses: string[] }> {
  return new Promise((done) =>
    guardedLookup(allowPrivate)(hostname, { all: true }, (error, addresses) =>
      done({
        error,
        addresses: Array.isArray(addresses) ? (addresses as LookupAddress[]).map((entry) => entry.address) : [],
      }),
    ),
  );
}

describe('where webhooks may be sent', () => {
  it.each(['8.8.8.8', '2a00:1450:4001:82b::200e'])('treats %s as public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    'fe80::1',
    '0.0.0.0',
    '::ffff:169.254.169.254',
  ])('treats %s as not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]:8080/',
    'http://[::ffff:169.254.169.254]/',
    'http://100.100.100.200/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://168.63.129.16/metadata/instance',
    'http://0.0.0.0:3003/health',
  ])('refuses %s even where private addresses are allowed', (url) => {
    expect(() => assertAllowedUrl(url, true)).toThrow(ForbiddenTargetError);
  });

  it('allows a loopback receiver only where private addresses are allowed', () => {
    expect(() => assertAllowedUrl('http://127.0.0.1:8080/hooks', false)).toThrow(ForbiddenTargetError);
    expect(assertAllowedUrl('http://127.0.0.1:8080/hooks', true).port).toBe('8080');
  });

  it('refuses names that resolve to loopback unless allowed, and link-local always', async () => {
    expect((await resolveWith(false, 'localhost')).error).toBeInstanceOf(ForbiddenTargetError);
    expect((await resolveWith(true, 'localhost')).addresses.length).toBeGreaterThan(0);
    expect((await resolveWith(true, '169.254.169.254')).error).toBeInstanceOf(ForbiddenTargetError);
  });
});

describe('the ports a webhook may use', () => {
  it.each(['https://hooks.example.com/in', 'https://hooks.example.com:443/in', 'http://8.8.8.8:80/in'])(
    'sends to %s: a port the egress policy opens',
    (url) => {
      expect(assertAllowedUrl(url, false).hostname).toBeTruthy();
    },
  );

  it.each(['https://hooks.example.com:8443/in', 'http://8.8.8.8:3000/in', 'https://[2a00:1450::1]:22/'])(
    'never sends to %s, a port the dispatcher cannot reach',
    (url) => {
      expect(() => assertAllowedUrl(url, false)).toThrow(ForbiddenTargetError);
    },
  );

  it('refuses such a URL when it is set, saying which ports', async () => {
    const policy = { live: true, allowPrivate: false, check: 'literal' } as const;
    expect(await webhookUrlRefusal('https://8.8.8.8:8443/hooks', policy)).toBe(
      'Webhook URLs must use port 443 or 80, not 8443',
    );
    expect(await webhookUrlRefusal('https://8.8.8.8/hooks', policy)).toBeNull();
    // A receiver on a developer's machine, where private targets are allowed: any port.
    expect(
      await webhookUrlRefusal('http://127.0.0.1:4000/hooks', { live: false, allowPrivate: true, check: 'literal' }),
    ).toBeNull();
  });
});

describe('a URL refused for its address and its port', () => {
  it('is told about its address, which says more', async () => {
    const policy = { live: false, allowPrivate: false, check: 'literal' } as const;
    expect(await webhookUrlRefusal('http://127.0.0.1:8000/callback', policy)).toContain('resolves to a private');
    expect(await webhookUrlRefusal('https://hooks.example.com:8443/in', policy)).toBe(
      'Webhook URLs must use port 443 or 80, not 8443',
    );
  });
});
