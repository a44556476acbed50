import { spawnSync } from 'node:child_process';

import { testEnvironment } from '@payments/testing';

import { repoRoot } from './apps';

jest.setTimeout(120_000);

function partnerCreate(args: string[], settings: Record<string, string> = {}) {
  return spawnSync('npm', ['run', 'partner:create', '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...testEnvironment(settings) },
    encoding: 'utf8',
  });
}

describe('npm run partner:create', () => {
  it('with --json prints exactly one JSON object on stdout', () => {
    const result = partnerCreate(['--name', 'Kano Traders', '--webhook-url', 'https://kano.example/hooks', '--json']);
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(Object.keys(created).sort()).toEqual([
      'apiKey',
      'apiSecret',
      'businessId',
      'posEncryptionKey',
      'webhookUrl',
    ]);
    expect(created.apiKey).toMatch(/^pk_test_/);
    expect(created.webhookUrl).toBe('https://kano.example/hooks');
  });

  it('issues live keys with --live', () => {
    const result = partnerCreate(['--name', 'Live Ltd', '--live', '--json']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).apiKey).toMatch(/^pk_live_/);
  });

  it('refuses a missing name, an unknown option and a webhook URL that is not http(s)', () => {
    const noName = partnerCreate(['--json']);
    expect(noName.status).toBe(2);
    expect(noName.stdout).toBe('');
    expect(noName.stderr).toContain('--name is required');

    const misspelt = partnerCreate(['--name', 'X', '--webhook', 'https://x.example', '--json']);
    expect(misspelt.status).toBe(2);
    expect(misspelt.stdout).toBe('');
    expect(misspelt.stderr).toContain("Unknown option '--webhook'");
    expect(misspelt.stderr).toContain('usage: npm run partner:create');

    const badUrl = partnerCreate(['--name', 'X', '--webhook-url', 'ftp://x.example', '--json']);
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toContain('--webhook-url must be an http(s) URL');
  });

  it('refuses a webhook URL deliveries could never reach, as PUT /webhooks/endpoint would, and creates nothing', () => {
    const production = { NODE_ENV: 'production', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'false' };
    const refused = [
      [['--webhook-url', 'http://127.0.0.1:8000/hooks'], production, 'resolves to a private, loopback'],
      [['--webhook-url', 'http://169.254.169.254/latest'], {}, 'resolves to a private, loopback'],
      [['--webhook-url', 'http://kano.example/hooks', '--live'], {}, 'Live webhook URLs must use https'],
    ] as const;
    for (const [args, settings, why] of refused) {
      const result = partnerCreate(['--name', 'Refused Ltd', ...args, '--json'], settings);
      expect([args[1], result.status, result.stdout]).toEqual([args[1], 2, '']);
      expect(result.stderr).toContain('WEBHOOK_URL_NOT_ALLOWED');
      expect(result.stderr).toContain(why);
    }
    // On a developer's machine a sandbox business may use a receiver on it, as docs/webhooks.md shows.
    const local = partnerCreate(['--name', 'Local Ltd', '--webhook-url', 'http://127.0.0.1:8000/hooks', '--json']);
    expect(local.status).toBe(0);
  });
});
