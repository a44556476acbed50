import { spawnSync } from 'node:child_process';

import { eventually, queryTestDatabase, testEnvironment } from '@payments/testing';

import { allApps, appPorts, npmRun, repoRoot, spawnApp, useApps, waitForReady } from './apps';
import { callGateway, createCheckout, PartnerCredentials } from './partners';

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
    const result = partnerCreate([
      '--name',
      'Kano Traders',
      '--webhook-url',
      'https://kano.example/hooks',
      '--json',
      '--wait-seconds',
      '0',
    ]);
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
    const result = partnerCreate(['--name', 'Live Ltd', '--live', '--json', '--wait-seconds', '0']);
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
    const local = partnerCreate([
      '--name',
      'Local Ltd',
      '--webhook-url',
      'http://127.0.0.1:8000/hooks',
      '--json',
      '--wait-seconds',
      '0',
    ]);
    expect(local.status).toBe(0);
  });
});

/** A partner's first requests: a webhook endpoint, an outlet and a card payment, each ready to send. */
function firstRequests(partner: PartnerCredentials, checkout: string) {
  return [
    () =>
      callGateway(partner, 'POST', '/webhooks/endpoints', {
        url: 'http://127.0.0.1:9/hooks',
        events: ['outlet.created'],
      }),
    () => callGateway(partner, 'POST', '/outlets', { accountName: 'First Outlet' }),
    () =>
      callGateway(partner, 'POST', `/checkout/${checkout}/card-payment`, {
        cardNumber: '5060990000000000019',
        expiryDate: '12/30',
        cvv: '123',
      }),
  ];
}

describe('npm run partner:create with the platform running', () => {
  const apps = useApps(allApps);

  it('returns once every service knows the business, so its first requests, sent at once, all succeed', async () => {
    const created = npmRun('partner:create', ['--name', 'First Seconds Ltd', '--json']);
    expect(created.status).toBe(0);
    const partner = JSON.parse(created.stdout) as PartnerCredentials;
    const checkout = await createCheckout(partner, ['card']);

    const answers = await Promise.all(firstRequests(partner, checkout).map((send) => send()));
    expect(answers.map((answer) => [answer.status, answer.body.data.code])).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
    expect(answers[2].body.data).toMatchObject({ transactionStatus: 'SUCCESS' });
    expect(created.stderr).toContain('Every service knows the business');
  });

  it("with --owner-email prints the owner's one-time sign-up link, which the dashboard opens", async () => {
    const created = npmRun('partner:create', [
      '--name',
      'Owned Ltd',
      '--owner-email',
      ' Owner@Owned.example ',
      '--json',
    ]);
    expect(created.status).toBe(0);
    const { businessId, ownerSignUpLink } = JSON.parse(created.stdout) as {
      businessId: string;
      ownerSignUpLink: string;
    };
    const link = new URL(ownerSignUpLink);
    expect(link.pathname).toBe('/dashboard/sign-up');
    expect(created.stderr).not.toContain(link.searchParams.get('invitation'));
    const page = await fetch(`http://127.0.0.1:${appPorts['checkout-gateway']}${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Join Owned Ltd');
    expect(html).toContain('owner@owned.example');
    const audit = await queryTestDatabase<{ action: string; actor: string }>(
      `SELECT action, actor FROM gateway.audit_events WHERE business_id = $1`,
      [businessId],
    );
    expect(audit).toEqual([{ action: 'member.invited', actor: 'partner:create' }]);

    const refused = npmRun('partner:create', ['--name', 'Nobody Ltd', '--owner-email', 'not an email', '--json']);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
  });

  it('answers 503 with Retry-After, never INVALID_TENANT, while the services have not heard of the business', async () => {
    // The onboarding event is held back: written while no gateway runs to publish it, then marked sent.
    const index = apps.findIndex((app) => app.name === 'checkout-gateway');
    apps[index].process.kill('SIGTERM');
    await apps[index].exited;
    const created = npmRun('partner:create', ['--name', 'Held Back Ltd', '--json', '--wait-seconds', '1']);
    expect(created.status).toBe(1);
    expect(created.stderr).toContain('Onboarding has not reached outlet-service, webhook-dispatcher within 1 s');
    const partner = JSON.parse(created.stdout) as PartnerCredentials;
    const held = await queryTestDatabase<{ id: string }>(
      `UPDATE gateway.outbox SET published_at = now() WHERE message_key = $1 AND published_at IS NULL RETURNING id`,
      [partner.businessId],
    );
    expect(held).toHaveLength(1);
    apps[index] = spawnApp('checkout-gateway');
    await waitForReady(appPorts['checkout-gateway'], apps[index]);
    const checkout = await createCheckout(partner, ['card']);

    const answers = await Promise.all(firstRequests(partner, checkout).map((send) => send()));
    for (const answer of answers) {
      expect([answer.status, answer.body.data.code, answer.headers.get('retry-after')]).toEqual([
        503,
        'SERVICE_UNAVAILABLE',
        '2',
      ]);
      expect(answer.body.message).not.toMatch(/support|being recorded/i);
    }
    // The card was not charged: nothing waits to be recorded.
    const charges = await queryTestDatabase(`SELECT 1 FROM card_processor.card_charges WHERE checkout_reference = $1`, [
      checkout,
    ]);
    expect(charges).toHaveLength(0);

    // Once the event travels, the same requests succeed, and the onboarding is recorded complete.
    await queryTestDatabase(`UPDATE gateway.outbox SET published_at = NULL WHERE id = $1`, [held[0].id]);
    const retried = await Promise.all(
      firstRequests(partner, checkout).map((send) =>
        eventually(async () => {
          const answer = await send();
          return answer.status === 200 ? answer : undefined;
        }, 30_000),
      ),
    );
    expect(retried[2].body.data).toMatchObject({ transactionStatus: 'SUCCESS' });
    const onboarding = await eventually(async () => {
      const [row] = await queryTestDatabase<{ onboarding_awaits: string[] }>(
        `SELECT onboarding_awaits FROM gateway.businesses WHERE id = $1`,
        [partner.businessId],
      );
      return row.onboarding_awaits.length === 0 ? row : undefined;
    }, 30_000);
    expect(onboarding.onboarding_awaits).toEqual([]);
  });
});
