import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadEnv, PlatformEnv } from '@payments/platform-config';

import { kafkaSecurity, tlsFiles } from './kafka-client';

describe('kafkaSecurity', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-client-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('connects in plain text with no settings, and over TLS with the system CAs with KAFKA_TLS alone', () => {
    expect(kafkaSecurity(loadEnv(PlatformEnv, {}))).toEqual({});
    expect(kafkaSecurity(loadEnv(PlatformEnv, { KAFKA_TLS: 'true' }))).toEqual({ ssl: true });
  });

  it('reads the CA bundle, the client certificate and the SASL secrets from their files, without a trailing newline', () => {
    const env = loadEnv(PlatformEnv, {
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: file('ca.pem', 'CA PEM\n'),
      KAFKA_TLS_CERT_FILE: file('cert.pem', 'CERT PEM\n'),
      KAFKA_TLS_KEY_FILE: file('key.pem', 'KEY PEM\n'),
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME_FILE: file('username', 'checkout-gateway\n'),
      KAFKA_SASL_PASSWORD_FILE: file('password', 's3cret\n'),
    });
    expect(kafkaSecurity(env)).toEqual({
      ssl: { ca: ['CA PEM\n'], cert: 'CERT PEM\n', key: 'KEY PEM\n' },
      sasl: { mechanism: 'scram-sha-512', username: 'checkout-gateway', password: 's3cret' },
      socketFactory: expect.any(Function),
    });
  });

  it('trusts a renewed CA bundle from the next connection on, and keeps the last one while the file is away', () => {
    const pem = (name: string) => `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----\n`;
    const ca = file('renewed-ca.pem', pem('OLD'));
    const files = tlsFiles(loadEnv(PlatformEnv, { KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: ca }));
    expect(files().ca).toEqual([pem('OLD')]);
    // Strimzi's renewal: the Secret holds the new CA beside the old one for a while.
    writeFileSync(ca, pem('OLD') + pem('NEW'));
    expect(files().ca).toEqual([pem('OLD') + pem('NEW')]);
    // Caught mid-swap: an empty file, then none. The last whole bundle stays.
    writeFileSync(ca, '');
    expect(files().ca).toEqual([pem('OLD') + pem('NEW')]);
    rmSync(ca);
    expect(files().ca).toEqual([pem('OLD') + pem('NEW')]);
  });
});
