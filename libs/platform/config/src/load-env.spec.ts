import { IsString, MinLength } from 'class-validator';

import { InvalidEnvironmentError, loadEnv } from './load-env';
import { PlatformEnv } from './platform-env';

class AppEnv extends PlatformEnv {
  override PORT: number = 3100;

  @IsString()
  @MinLength(8)
  SIGNING_SECRET: string = '';
}

function problemsOf(source: NodeJS.ProcessEnv): string[] {
  try {
    loadEnv(AppEnv, source);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadEnv', () => {
  it('applies the defaults of the app and the platform', () => {
    const env = loadEnv(AppEnv, { SIGNING_SECRET: 'long-enough' });
    expect(env.PORT).toBe(3100);
    expect(env.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/payments');
    expect(env.KAFKA_BROKERS).toBe('127.0.0.1:9092');
    expect(env.MIGRATE_ON_START).toBe(true);
  });

  it('converts numbers and booleans from their text', () => {
    const env = loadEnv(AppEnv, { SIGNING_SECRET: 'long-enough', PORT: '4000', MIGRATE_ON_START: 'false' });
    expect(env.PORT).toBe(4000);
    expect(env.MIGRATE_ON_START).toBe(false);
  });

  it('names every bad variable in one error', () => {
    const problems = problemsOf({ PORT: 'eighty', KAFKA_BROKERS: 'not a broker list', DATABASE_URL: 'mysql://x' });
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual([
      'DATABASE_URL',
      'KAFKA_BROKERS',
      'PORT',
      'SIGNING_SECRET',
    ]);
  });

  it('never echoes the value of a bad variable', () => {
    const problems = problemsOf({ SIGNING_SECRET: 'short' });
    expect(problems.join('\n')).toContain('SIGNING_SECRET');
    expect(problems.join('\n')).not.toContain('short');
  });

  it('ignores variables the app does not declare', () => {
    expect(() => loadEnv(AppEnv, { SIGNING_SECRET: 'long-enough', HOME: '/root', PATH: '/bin' })).not.toThrow();
  });
});
