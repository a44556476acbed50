import { eventually } from '@payments/testing';

import { useApps } from './apps';
import { callGateway, createPartner, PartnerCredentials } from './partners';

jest.setTimeout(240_000);

interface EndpointView {
  signingSecret: string;
  previousSecretExpiresAt: string | null;
}

describe('rolling a webhook signing secret through the partner API', () => {
  useApps(['checkout-gateway', 'webhook-dispatcher'], { every: { WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' } });
  let partner: PartnerCredentials;

  const roll = (key: string, gracePeriodHours = 24) =>
    callGateway<EndpointView & { code?: string }>(
      partner,
      'POST',
      '/webhooks/endpoints/default/roll-secret',
      { gracePeriodHours },
      { 'Idempotency-Key': key },
    );

  beforeAll(async () => {
    partner = createPartner('Secret Rolls Partner', ['--webhook-url', 'http://127.0.0.1:9/hooks']);
    await eventually(
      async () => ((await callGateway(partner, 'GET', '/webhooks/endpoint')).status === 200 ? true : undefined),
      60_000,
    );
  });

  it('answers the same new secret to concurrent rolls with one Idempotency-Key, and refuses the key for another roll', async () => {
    const deployed = (await callGateway<EndpointView>(partner, 'GET', '/webhooks/endpoint')).body.data.signingSecret;
    const replies = await Promise.all(Array.from({ length: 5 }, () => roll('roll-2026-11')));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    const secrets = new Set(replies.map((reply) => reply.body.data.signingSecret));
    expect(secrets.size).toBe(1);
    expect(secrets.has(deployed)).toBe(false);
    expect((await callGateway<EndpointView>(partner, 'GET', '/webhooks/endpoint')).body.data.signingSecret).toBe(
      [...secrets][0],
    );

    const reused = await roll('roll-2026-11', 1);
    expect(reused.status).toBe(422);
    expect(reused.body.data.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});
