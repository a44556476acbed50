import { randomBytes } from 'node:crypto';

import { InvalidEnvironmentError, loadEnv } from './load-env';
import { PlatformEnv } from './platform-env';
import { DevelopmentKeyRefused, isDevelopmentKey, KeyRingSetting, KeySetting } from './settings';

class KeyedEnv extends PlatformEnv {
  @KeySetting() DATA_KEY: string = '';
  @DevelopmentKeyRefused('hex') ZONE_KEY: string = '';
}

class RingEnv extends PlatformEnv {
  @KeyRingSetting() SEALING_KEY: string = '';
}

function ringProblemsOf(source: Record<string, string>): string[] {
  try {
    loadEnv(RingEnv, source);
    return [];
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    return error.problems;
  }
}

/** docker-compose.yml's data key and zone PIN key. */
const published = {
  DATA_KEY: 'bG9jYWwtb25seS1rZXktbmV2ZXItdXNlLWluLXByb2Q=',
  ZONE_KEY: '6C6F63616C2D7A706B2D6E6F70726F64',
};
const own = { DATA_KEY: randomBytes(32).toString('base64'), ZONE_KEY: randomBytes(16).toString('hex') };
const production = { NODE_ENV: 'production', TRUSTED_PROXIES: 'none' };

function problemsOf(source: Record<string, string>): string[] {
  try {
    loadEnv(KeyedEnv, source);
    return [];
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    return error.problems;
  }
}

describe('the development keys this repository publishes', () => {
  it('are known as such, by what they decode to', () => {
    expect(isDevelopmentKey(published.DATA_KEY, 'base64')).toBe(true);
    expect(isDevelopmentKey(published.ZONE_KEY, 'hex')).toBe(true);
    expect(isDevelopmentKey(own.DATA_KEY, 'base64')).toBe(false);
  });

  it('stop an app in production, naming each', () => {
    const problems = problemsOf({ ...production, ...published });
    expect(problems).toEqual([
      expect.stringMatching(/^DATA_KEY: is a development key/),
      expect.stringMatching(/^ZONE_KEY: is a development key/),
    ]);
    expect(problemsOf({ ...production, ...own })).toEqual([]);
  });

  it("run on a laptop's platform that says so, and anywhere outside production", () => {
    expect(problemsOf({ ...production, ...published, ALLOW_DEVELOPMENT_KEYS: 'true' })).toEqual([]);
    expect(problemsOf({ NODE_ENV: 'development', ...published })).toEqual([]);
  });
});

describe('a key ring setting', () => {
  const [first, second] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];

  it('takes one key or several, comma-separated', () => {
    expect(loadEnv(RingEnv, { SEALING_KEY: first }).SEALING_KEY).toBe(first);
    expect(ringProblemsOf({ SEALING_KEY: `${first},${second}` })).toEqual([]);
  });

  it('refuses anything but 32-byte keys, without repeating what it was given', () => {
    for (const value of ['', `${first},`, `${first} ,${second}`, randomBytes(16).toString('base64')]) {
      const problems = ringProblemsOf({ SEALING_KEY: value });
      expect(problems).toEqual([expect.stringMatching(/^SEALING_KEY: must list 32-byte keys, base64-encoded/)]);
      expect(problems[0]).not.toContain(first);
    }
  });

  it('refuses a ring that lists a key twice', () => {
    expect(ringProblemsOf({ SEALING_KEY: `${first},${second},${first}` })).toEqual([
      'SEALING_KEY: lists the same key twice',
    ]);
  });

  it('refuses a development key anywhere in the ring in production', () => {
    expect(ringProblemsOf({ ...production, SEALING_KEY: `${first},${published.DATA_KEY}` })).toEqual([
      expect.stringMatching(/^SEALING_KEY: is a development key/),
    ]);
    expect(ringProblemsOf({ ...production, SEALING_KEY: `${first},${second}` })).toEqual([]);
  });
});
