import { createHmac } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { KeyAuditEntry } from '@payments/contracts';
import { eventually } from '@payments/testing';

import { npmRun, useApps } from './apps';
import { callGateway, createPartner, PartnerCredentials } from './partners';

jest.setTimeout(240_000);

interface Pair {
  apiKey: string;
  apiSecret: string;
}

interface ReceivedWebhook {
  event: string;
  eventData: unknown;
  signature: string;
  previousSignature?: string;
}

const signedWith = (apiKey: string, eventData: unknown) =>
  createHmac('sha256', apiKey).update(JSON.stringify(eventData)).digest('hex');

describe('rolling a business’s API keys', () => {
  const received: ReceivedWebhook[] = [];
  let receiver: Server;
  let partner: PartnerCredentials;
  /** The pairs issued so far, oldest first. */
  const pairs: Pair[] = [];

  const as = (pair: Pair, method: string, path: string, body?: unknown) =>
    callGateway(
      { ...partner, apiKey: pair.apiKey, apiSecret: pair.apiSecret } as PartnerCredentials,
      method,
      path,
      body,
    );
  const roll = async (pair: Pair, body: unknown) => {
    const answer = await as(pair, 'POST', '/business/keys/roll', body);
    if (answer.status === 200) pairs.push(answer.body.data as unknown as Pair);
    return answer;
  };
  /** A test webhook, sent until one is signed as `ready` says: the roll reaches the dispatcher over Kafka. */
  const testWebhookWhere = (pair: Pair, ready: (webhook: ReceivedWebhook) => boolean) =>
    eventually(async () => {
      const before = received.length;
      expect((await as(pair, 'POST', '/webhooks/test')).status).toBe(200);
      const webhook = await eventually(
        async () => received.slice(before).find((body) => body.event === 'webhook.test'),
        10_000,
      );
      return ready(webhook) ? webhook : undefined;
    }, 60_000);

  useApps(['checkout-gateway', 'webhook-dispatcher'], {
    'checkout-gateway': { KEY_EXPIRY_POLL_MS: '200' },
    // The receiver listens on loopback, as a developer's would.
    'webhook-dispatcher': { WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' },
  });

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push(JSON.parse(body) as ReceivedWebhook);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    partner = createPartner('Rotating Partner', ['--webhook-url', url]);
    pairs.push({ apiKey: partner.apiKey, apiSecret: partner.apiSecret });
    // Onboarding reaches the dispatcher over Kafka.
    await eventually(
      async () => ((await as(pairs[0], 'GET', '/webhooks/endpoint')).status === 200 ? true : undefined),
      60_000,
    );
  });

  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('issues a new pair; the rolled one works through its grace but cannot roll again, and webhooks carry both signatures', async () => {
    const rolled = await roll(pairs[0], { gracePeriodHours: 2 });
    expect(rolled.status).toBe(200);
    const [old, current] = pairs;
    expect(current.apiKey).toMatch(/^pk_test_/);
    expect(current.apiKey).not.toBe(old.apiKey);
    const graceEnds = Date.parse(String(rolled.body.data.previousKeyExpiresAt));
    expect(graceEnds - Date.now()).toBeGreaterThan(119 * 60_000);
    expect(graceEnds - Date.now()).toBeLessThanOrEqual(120 * 60_000);

    expect((await as(current, 'GET', '/business')).status).toBe(200);
    expect((await as(old, 'GET', '/business')).status).toBe(200);
    const again = await as(old, 'POST', '/business/keys/roll', {});
    expect([again.status, again.body.data]).toEqual([403, { code: 'KEY_EXPIRING' }]);

    const webhook = await testWebhookWhere(current, (body) => body.previousSignature !== undefined);
    expect(webhook.signature).toBe(signedWith(current.apiKey, webhook.eventData));
    expect(webhook.previousSignature).toBe(signedWith(old.apiKey, webhook.eventData));
  });

  it('refuses the rolled pairs at once when the grace is zero, and audits creations, rolls and expiries', async () => {
    expect((await roll(pairs[1], { gracePeriodHours: 0 })).status).toBe(200);
    const [first, second, third] = pairs;
    expect((await as(first, 'GET', '/business')).status).toBe(401);
    expect((await as(second, 'GET', '/business')).status).toBe(401);
    expect((await as(third, 'GET', '/business')).status).toBe(200);

    const webhook = await testWebhookWhere(
      third,
      (body) => body.signature === signedWith(third.apiKey, body.eventData),
    );
    expect(webhook).not.toHaveProperty('previousSignature');

    const listing = await eventually(async () => {
      const { body } = await as(third, 'GET', '/business/keys');
      const data = body.data as unknown as { keys: { status: string; apiKeyHint: string }[]; audit: KeyAuditEntry[] };
      return data.audit.filter((entry) => entry.action === 'expired').length === 2 ? data : undefined;
    }, 30_000);
    expect(listing.keys.map((key) => key.status)).toEqual(['active', 'expired', 'expired']);
    expect(listing.keys[0].apiKeyHint).toBe(`${third.apiKey.slice(0, 8)}…${third.apiKey.slice(-4)}`);
    expect(JSON.stringify(listing)).not.toContain(third.apiKey);
    const actions = listing.audit.map((entry) => `${entry.action}:${entry.actor ?? ''}`);
    expect(actions.filter((action) => action.startsWith('created'))).toHaveLength(3);
    expect(actions.filter((action) => action === 'rolled:api')).toHaveLength(2);
  });

  it.each([[73], [-1], [1.5], ['twelve']])('refuses a grace period of %j hours', async (gracePeriodHours) => {
    const answer = await as(pairs.at(-1)!, 'POST', '/business/keys/roll', { gracePeriodHours });
    expect(answer.status).toBe(422);
    expect(answer.body.data).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'gracePeriodHours' }] });
  });

  it('lets an operator roll the keys from the command line', async () => {
    const before = pairs.at(-1)!;
    const result = npmRun('partner:keys:roll', ['--business', partner.businessId, '--grace-hours', '0', '--json']);
    expect(result.status).toBe(0);
    const rolled = JSON.parse(result.stdout) as Pair & { previousKeyExpiresAt: string };
    expect((await as(rolled, 'GET', '/business')).status).toBe(200);
    // Another process rolled it: the gateway stops trusting the pair it cached within 30 seconds.
    await eventually(async () => ((await as(before, 'GET', '/business')).status === 401 ? true : undefined), 45_000);
    const { body } = await as(rolled, 'GET', '/business/keys');
    const { audit } = body.data as unknown as { audit: KeyAuditEntry[] };
    expect(audit.find((entry) => entry.action === 'rolled')).toMatchObject({ actor: 'operator' });

    const refused = npmRun('partner:keys:roll', ['--business', partner.businessId, '--grace-hours', '73']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--grace-hours must be a whole number from 0 to 72');
    const stranger = npmRun('partner:keys:roll', ['--business', 'NO-SUCH-BUSINESS', '--grace-hours', '0']);
    expect(stranger.status).toBe(2);
    expect(stranger.stderr).toContain('no business NO-SUCH-BUSINESS');
  });
});
