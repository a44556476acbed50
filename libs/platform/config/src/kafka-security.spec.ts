import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { InvalidEnvironmentError, loadEnv } from './load-env';
import { PlatformEnv } from './platform-env';

const dir = mkdtempSync(join(tmpdir(), 'kafka-security-'));
const file = (name: string) => {
  const path = join(dir, name);
  writeFileSync(path, `${name}\n`);
  return path;
};
const [ca, cert, key, password] = ['ca.pem', 'client.pem', 'client.key', 'password'].map(file);

function problemsOf(source: NodeJS.ProcessEnv): string[] {
  try {
    loadEnv(PlatformEnv, source);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return error.problems;
    throw error;
  }
  return [];
}

describe('Kafka connection settings', () => {
  it('accepts none, TLS alone, TLS with a CA and a client certificate, and SASL from the environment or files', () => {
    expect(problemsOf({})).toEqual([]);
    expect(problemsOf({ KAFKA_TLS: 'true' })).toEqual([]);
    expect(
      problemsOf({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: ca, KAFKA_TLS_CERT_FILE: cert, KAFKA_TLS_KEY_FILE: key }),
    ).toEqual([]);
    expect(
      problemsOf({
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'gateway',
        KAFKA_SASL_PASSWORD_FILE: password,
      }),
    ).toEqual([]);
    const env = loadEnv(PlatformEnv, {
      KAFKA_TLS: 'true',
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
    });
    expect([env.KAFKA_TLS, env.KAFKA_SASL_MECHANISM]).toEqual([true, 'plain']);
  });

  it('stops on a setting given by half, naming the variable that is missing or contradicts it', () => {
    expect(problemsOf({ KAFKA_TLS_CA_FILE: ca })).toEqual(['KAFKA_TLS_CA_FILE: is set, so KAFKA_TLS must be true']);
    expect(problemsOf({ KAFKA_TLS: 'true', KAFKA_TLS_CERT_FILE: cert })).toEqual([
      'KAFKA_TLS_KEY_FILE: a client certificate needs both KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE',
    ]);
    expect(problemsOf({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: join(dir, 'missing.pem') })).toEqual([
      'KAFKA_TLS_CA_FILE: names no readable file',
    ]);
    expect(problemsOf({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'gateway' })).toEqual([
      'KAFKA_SASL_PASSWORD: is required (or KAFKA_SASL_PASSWORD_FILE) when KAFKA_SASL_MECHANISM is set',
    ]);
    expect(problemsOf({ KAFKA_SASL_USERNAME: 'gateway', KAFKA_SASL_PASSWORD: 'secret' })).toEqual([
      'KAFKA_SASL_MECHANISM: must be set when KAFKA_SASL_USERNAME is',
      'KAFKA_SASL_MECHANISM: must be set when KAFKA_SASL_PASSWORD is',
    ]);
    expect(
      problemsOf({
        KAFKA_SASL_MECHANISM: 'scram-sha-256',
        KAFKA_SASL_USERNAME: 'gateway',
        KAFKA_SASL_PASSWORD: 'secret',
        KAFKA_SASL_PASSWORD_FILE: password,
      }),
    ).toEqual(['KAFKA_SASL_PASSWORD_FILE: is set as well as KAFKA_SASL_PASSWORD; give one of them']);
    expect(problemsOf({ KAFKA_SASL_MECHANISM: 'gssapi' })[0]).toMatch(/^KAFKA_SASL_MECHANISM: /);
  });

  it('refuses PLAIN without TLS in production, where it would send the password as it is', () => {
    const plain = { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' };
    expect(problemsOf({ ...plain, NODE_ENV: 'production' })).toEqual([
      'KAFKA_TLS: must be true with KAFKA_SASL_MECHANISM=plain in production (it sends the password as it is)',
    ]);
    expect(problemsOf({ ...plain, NODE_ENV: 'production', KAFKA_TLS: 'true' })).toEqual([]);
  });

  it('never names a value in its problems, only variables', () => {
    const problems = problemsOf({ KAFKA_SASL_USERNAME: 'gateway', KAFKA_SASL_PASSWORD: 'hunter2-secret' });
    expect(problems.join('\n')).not.toContain('hunter2-secret');
  });
});
