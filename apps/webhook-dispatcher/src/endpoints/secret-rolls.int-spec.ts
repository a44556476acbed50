import { CommandReply, WebhookEndpointDetailResponse } from '@payments/contracts';
import { eventually } from '@payments/testing';
import { Webhook } from 'standardwebhooks';

import { DispatcherFixture } from '../testing/dispatcher.fixture';
import { Receiver } from '../testing/receiver';

jest.setTimeout(60_000);

type Endpoint = WebhookEndpointDetailResponse;

describe('rolling a signing secret', () => {
  const fixture = new DispatcherFixture();
  let receiver: Receiver;
  let addedReceiver: Receiver;

  beforeAll(async () => {
    await fixture.start();
    [receiver, addedReceiver] = await Promise.all([new Receiver().start(), new Receiver().start()]);
  });

  afterAll(async () => {
    await fixture.close();
    await Promise.all([receiver.stop(), addedReceiver.stop()]);
  });

  const data = (reply: CommandReply<Endpoint>): Endpoint => {
    if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    return reply.data;
  };

  const roll = (businessId: string, endpointId: string, idempotencyKey?: string, gracePeriodHours = 24) =>
    fixture.command<Endpoint>({ type: 'rollEndpointSecret', businessId, endpointId, gracePeriodHours, idempotencyKey });

  /** A new event's request, as `at` received it. */
  async function delivered(
    businessId: string,
    at = receiver,
  ): Promise<{ body: string; headers: Record<string, string> }> {
    const eventId = await fixture.event(businessId, { amount: '100' });
    const request = await eventually(
      async () => at.received.find((entry) => entry.headers['x-event-id'] === eventId),
      15_000,
    );
    return { body: request.body, headers: request.headers as Record<string, string> };
  }

  const verifies = (secret: string, request: { body: string; headers: Record<string, string> }) => {
    try {
      new Webhook(secret).verify(request.body, request.headers);
      return true;
    } catch {
      return false;
    }
  };

  it('answers one new secret to concurrent rolls with the same Idempotency-Key; the deployed one still verifies', async () => {
    const business = await fixture.business(receiver.url);
    const deployed = data(
      await fixture.command({ type: 'describeEndpoint', businessId: business.businessId, endpointId: 'default' }),
    );

    const replies = await Promise.all(Array.from({ length: 5 }, () => roll(business.businessId, 'default', 'roll-1')));
    const secrets = new Set(replies.map((reply) => data(reply).signingSecret));
    expect(secrets.size).toBe(1);
    const [rolled] = secrets;
    expect(rolled).not.toBe(deployed.signingSecret);
    // A retry later answers the same, too.
    expect(data(await roll(business.businessId, 'default', 'roll-1')).signingSecret).toBe(rolled);

    const request = await delivered(business.businessId);
    expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifies(deployed.signingSecret, request)).toBe(true);
    expect(verifies(rolled, request)).toBe(true);
  });

  it('refuses the same Idempotency-Key for another roll', async () => {
    const business = await fixture.business(receiver.url);
    data(await roll(business.businessId, 'default', 'roll-1', 24));
    expect(await roll(business.businessId, 'default', 'roll-1', 1)).toMatchObject({
      ok: false,
      error: { code: 'IDEMPOTENCY_KEY_REUSED', status: 422 },
    });
  });

  it('keeps the deployed secret signing when a roll whose answer was lost is retried without a key', async () => {
    const business = await fixture.business(receiver.url);
    const created = data(
      await fixture.command({
        type: 'createEndpoint',
        businessId: business.businessId,
        endpoint: { url: addedReceiver.url, events: ['*'] },
      }),
    );
    const deployed = created.signingSecret;

    const lost = data(await roll(business.businessId, created.endpointId));
    const retried = data(await roll(business.businessId, created.endpointId));
    expect(retried.signingSecret).not.toBe(lost.signingSecret);

    const sent = await delivered(business.businessId, addedReceiver);
    expect(sent.headers['webhook-signature'].split(' ')).toHaveLength(3);
    for (const secret of [deployed, lost.signingSecret, retried.signingSecret]) {
      expect(verifies(secret, sent)).toBe(true);
    }
  });
});
