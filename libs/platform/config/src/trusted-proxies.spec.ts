import { InvalidEnvironmentError, loadEnv } from './load-env';
import { PlatformEnv } from './platform-env';
import { developmentTrustedProxies, trustedProxies } from './trusted-proxies';

function problemsOf(source: NodeJS.ProcessEnv): string[] {
  try {
    trustedProxies(loadEnv(PlatformEnv, source));
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return error.problems;
    throw error;
  }
  return [];
}

describe('TRUSTED_PROXIES', () => {
  it('is required in production, and the error names it', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^TRUSTED_PROXIES: is required in production/);
  });

  it('takes none in production, trusting no proxy', () => {
    expect(trustedProxies(loadEnv(PlatformEnv, { NODE_ENV: 'production', TRUSTED_PROXIES: 'none' }))).toEqual([]);
  });

  it("takes production's proxies as addresses and CIDRs of either family, and range names", () => {
    const env = loadEnv(PlatformEnv, {
      NODE_ENV: 'production',
      TRUSTED_PROXIES: '10.244.0.0/16, 192.0.2.10,2001:db8:ff::/48 ,fd00::1,loopback',
    });
    expect(trustedProxies(env)).toEqual(['10.244.0.0/16', '192.0.2.10', '2001:db8:ff::/48', 'fd00::1', 'loopback']);
  });

  it('trusts loopback and private networks outside production when unset', () => {
    for (const NODE_ENV of ['development', 'test']) {
      expect(trustedProxies(loadEnv(PlatformEnv, { NODE_ENV }))).toEqual(developmentTrustedProxies);
    }
  });

  it('refuses what is not an address, a CIDR or a range name, without echoing it, and a /0', () => {
    for (const TRUSTED_PROXIES of [
      'ingress.internal',
      '10.0.0.0/33',
      '0.0.0.0/0',
      '::/0',
      'none,10.0.0.1',
      '10.0.0.1,',
    ]) {
      const problems = problemsOf({ NODE_ENV: 'production', TRUSTED_PROXIES });
      expect([TRUSTED_PROXIES, problems]).toEqual([
        TRUSTED_PROXIES,
        [expect.stringMatching(/^TRUSTED_PROXIES: must be none, or/)],
      ]);
      expect(problems[0]).not.toContain(TRUSTED_PROXIES);
    }
  });
});
