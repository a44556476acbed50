import { createHmac } from 'node:crypto';

import {
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  WebhookCommand,
  WebhookEndpointResponse,
} from '@payments/contracts';
import { singleRow } from '@payments/platform-database';
import { eventually } from '@payments/testing';
import { Webhook } from 'standardwebhooks';

import { DispatcherFixture } from '../testing/dispatcher.fixture';
import { Receiver } from '../testing/receiver';

jest.setTimeout(120_000);

/** Verifies like a receiver would, without any of the dispatcher's code. */
function specSignatureIsValid(body: string, apiKey: string): boolean {
  const payload = JSON.parse(body) as { eventData: unknown; signature: string };
  return createHmac('sha256', apiKey).update(JSON.stringify(payload.eventData)).digest('hex') === payload.signature;
}

describe('webhook dispatcher', () => {
  const fixture = new DispatcherFixture();
  const receivers: Receiver[] = [];
  const receiver = async (...args: ConstructorParameters<typeof Receiver>) => {
    const started = await new Receiver(...args).start();
    receivers.push(started);
    return started;
  };
  const command = async <T>(payload: WebhookCommand): Promise<T> => {
    const reply = await fixture.command<T>(payload);
    if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    return reply.data as T;
  };

  beforeAll(() => fixture.start());

  afterAll(async () => {
    await fixture.close();
    await Promise.all(receivers.map((each) => each.stop()));
  });

  it('posts {event, eventData, signature} signed with the API key, with Standard Webhooks headers', async () => {
    const target = await receiver();
    const business = await fixture.business(target.url);
    const eventData = { amount: '5000', note: 'a/b "quoted" ₦ naïra', nested: { empty: {}, list: [1, 'two'] } };
    const eventId = await fixture.event(business.businessId, eventData);

    const [delivery] = await eventually(async () => (target.received.length > 0 ? target.received : undefined));
    const body = JSON.parse(delivery.body);
    expect(body).toEqual({
      event: 'fundAccount.success',
      eventData,
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(specSignatureIsValid(delivery.body, business.apiKey)).toBe(true);
    expect(delivery.headers).toMatchObject({
      'x-event-id': eventId,
      'x-attempt': '1',
      'content-type': 'application/json',
    });

    const { signingSecret } = await command<WebhookEndpointResponse>({
      type: 'getEndpoint',
      businessId: business.businessId,
    });
    expect(signingSecret).toMatch(/^whsec_/);
    expect(new Webhook(signingSecret).verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(body);
    await eventually(async () =>
      (await fixture.deliveries(business.businessId))[0]?.status === 'succeeded' ? true : undefined,
    );
  });

  it('creates one delivery per event and destination, however often the event arrives', async () => {
    const target = await receiver();
    const callback = await receiver();
    const business = await fixture.business(target.url);
    const eventId = await fixture.event(business.businessId, { n: 1 }, 'checkout.success', callback.url);
    const again = {
      eventId,
      type: 'partner.event.v1',
      occurredAt: new Date().toISOString(),
      businessId: business.businessId,
    };
    const consumer = fixture.get((await import('./partner-events.consumer')).PartnerEventsConsumer);
    await consumer.handle({
      ...again,
      payload: { event: 'checkout.success' as never, eventData: { n: 1 }, callbackUrl: callback.url },
    });
    await eventually(async () => (target.received.length && callback.received.length ? true : undefined));
    const targets = (await fixture.deliveries(business.businessId)).map((row) => row.target).sort();
    expect(targets).toEqual(['business', 'callback']);
  });

  it('retries failures on the schedule and records every attempt', async () => {
    const target = await receiver((_request, count) =>
      count < 3 ? { status: 500, body: 'x'.repeat(3000) } : { status: 204 },
    );
    const business = await fixture.business(target.url);
    await fixture.event(business.businessId, { retry: true });
    await eventually(async () =>
      (await fixture.deliveries(business.businessId))[0]?.status === 'succeeded' ? true : undefined,
    );

    const times = target.received.map((entry) => entry.at);
    expect(times).toHaveLength(3);
    // Waits of 200 and 400 ms, each within ±20% (plus polling slack).
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(160);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(320);
    expect(target.received.map((entry) => entry.headers['x-attempt'])).toEqual(['1', '2', '3']);

    const [row] = await fixture.deliveries(business.businessId);
    const detail = await command<DeliveryDetailResponse>({
      type: 'getDelivery',
      businessId: business.businessId,
      deliveryId: row.id,
    });
    expect(detail.attemptLog.map((attempt) => attempt.statusCode)).toEqual([500, 500, 204]);
    // The receiver is on loopback: what a private address answers is never kept.
    expect(detail.attemptLog[0].responseBody).toBeNull();
    expect(detail.attemptLog.every((attempt) => attempt.latencyMs >= 0)).toBe(true);
  });

  it('marks a delivery failed after the last attempt, and keeps it visible', async () => {
    const target = await receiver(() => ({ status: 503 }));
    const business = await fixture.business(target.url);
    await fixture.event(business.businessId, { doomed: true });
    await eventually(
      async () => ((await fixture.deliveries(business.businessId))[0]?.status === 'failed' ? true : undefined),
      20_000,
    );
    expect(target.received).toHaveLength(4);
    const page = await command<DeliveryPageResponse>({
      type: 'listDeliveries',
      businessId: business.businessId,
      query: { status: 'failed', page: 1, limit: 10 },
    });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 503 });
  });

  it('honours Retry-After on 429', async () => {
    const target = await receiver((_request, count) =>
      count === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const business = await fixture.business(target.url);
    await fixture.event(business.businessId, { throttled: true });
    await eventually(async () => (target.received.length === 2 ? true : undefined));
    expect(target.received[1].at - target.received[0].at).toBeGreaterThanOrEqual(950);
  });

  it('disables the endpoint on 410 Gone and holds its events; a new URL re-enables it and delivers them', async () => {
    const gone = await receiver(() => ({ status: 410 }));
    const business = await fixture.business(gone.url);
    await fixture.event(business.businessId, { first: true });
    await eventually(async () =>
      (await fixture.deliveries(business.businessId))[0]?.status === 'held' ? true : undefined,
    );
    const endpoint = await command<WebhookEndpointResponse>({ type: 'getEndpoint', businessId: business.businessId });
    expect(endpoint.status).toBe('disabled');
    await fixture.event(business.businessId, { second: true });
    expect((await fixture.deliveries(business.businessId)).map((row) => row.status)).toEqual(['held', 'held']);
    const held = await command<DeliveryPageResponse>({
      type: 'listDeliveries',
      businessId: business.businessId,
      query: { status: 'held', page: 1, limit: 10 },
    });
    expect(held.items).toHaveLength(2);
    expect(gone.received).toHaveLength(1);

    const back = await receiver();
    const updated = await command<WebhookEndpointResponse>({
      type: 'setEndpoint',
      businessId: business.businessId,
      url: back.url,
    });
    expect(updated.status).toBe('active');
    await fixture.event(business.businessId, { third: true });
    await eventually(async () => (back.received.length === 3 ? true : undefined));
    expect(back.received.map((entry) => Object.keys(JSON.parse(entry.body).eventData)[0]).sort()).toEqual([
      'first',
      'second',
      'third',
    ]);
  });

  it('holds the events of a business without a webhook URL, and delivers them once it sets one', async () => {
    const business = await fixture.business(null);
    const eventId = await fixture.event(business.businessId, { early: true });
    expect(await fixture.deliveries(business.businessId)).toEqual([
      expect.objectContaining({ status: 'held', target: 'business' }),
    ]);
    const target = await receiver();
    await command<WebhookEndpointResponse>({ type: 'setEndpoint', businessId: business.businessId, url: target.url });
    await eventually(async () => (target.received.length === 1 ? true : undefined));
    expect(target.received[0].headers['x-event-id']).toBe(eventId);
  });

  it('never leaves an event parked when it arrives while its business is being provisioned', async () => {
    const target = await receiver();
    const businesses = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const pending = fixture.pendingBusiness(target.url);
        // Half the events start before provisioning, half after: either order must end in a delivery.
        const [eventId] =
          i % 2
            ? await Promise.all([fixture.event(pending.businessId, { i }), pending.provision()])
            : [await pending.provision().then(() => fixture.event(pending.businessId, { i }))];
        return { businessId: pending.businessId, eventId };
      }),
    );
    const ids = businesses.map((business) => business.businessId);
    const { parked } = await singleRow<{ parked: number }>(
      fixture.dataSource,
      `SELECT count(*)::int AS parked FROM webhooks.early_events WHERE business_id = ANY($1)`,
      [ids],
    );
    expect(parked).toBe(0);
    await eventually(
      async () => (businesses.every((business) => target.eventIds().has(business.eventId)) ? true : undefined),
      30_000,
    );
  });

  it('never lets an endpoint that does not answer delay another business', async () => {
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    const slow = await fixture.business(hanging.url);
    const fast = await fixture.business(healthy.url);
    for (let i = 0; i < 50; i += 1) await fixture.event(slow.businessId, { i });
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i += 1) ids.add(await fixture.event(fast.businessId, { i }));
    await eventually(async () => (healthy.eventIds().size === 1000 ? true : undefined), 60_000);
    expect(healthy.eventIds()).toEqual(ids);
    // The hanging endpoint never held more than its own slots (WEBHOOK_PER_ENDPOINT_CONCURRENCY, 4).
    expect(hanging.received.length).toBeGreaterThan(0);
    expect(hanging.maxConcurrent).toBeLessThanOrEqual(4);
  });

  it('replays a delivery and sends a test event on request', async () => {
    const target = await receiver();
    const business = await fixture.business(target.url);
    const eventId = await fixture.event(business.businessId, { original: true });
    await eventually(async () => (target.received.length === 1 ? true : undefined));
    const [original] = await fixture.deliveries(business.businessId);
    const replay = await command<DeliveryResponse>({
      type: 'replayDelivery',
      businessId: business.businessId,
      deliveryId: original.id,
    });
    expect(replay).toMatchObject({ target: 'replay', eventId });
    const test = await command<DeliveryResponse>({ type: 'sendTest', businessId: business.businessId });
    expect(test.event).toBe('webhook.test');
    await eventually(async () => (target.received.length === 3 ? true : undefined));
    // The replay and the test event share the endpoint's delivery slots, so either may arrive first.
    const events = target.received.map((entry) => JSON.parse(entry.body).event).sort();
    expect(events).toEqual(['fundAccount.success', 'fundAccount.success', 'webhook.test']);
    expect(target.received.every((entry) => specSignatureIsValid(entry.body, business.apiKey))).toBe(true);
  });

  it('answers another business’s delivery as not found', async () => {
    const target = await receiver();
    const owner = await fixture.business(target.url);
    const stranger = await fixture.business(null);
    await fixture.event(owner.businessId, { private: true });
    const [row] = await fixture.deliveries(owner.businessId);
    const reply = await fixture.command({ type: 'getDelivery', businessId: stranger.businessId, deliveryId: row.id });
    expect(reply).toEqual({
      ok: false,
      error: { code: 'DELIVERY_NOT_FOUND', message: `Delivery ${row.id} not found`, status: 404 },
    });
  });

  describe('for live businesses, private and metadata addresses are refused', () => {
    it.each([
      ['loopback by IP', 'http://127.0.0.1:9/hooks'],
      ['loopback by name', 'http://localhost:9/hooks'],
      ['cloud metadata', 'http://169.254.169.254/latest/meta-data'],
      ['private range', 'http://10.1.2.3/hooks'],
      ['IPv6 loopback', 'http://[::1]:9/hooks'],
    ])('when setting the URL: %s', async (_case, url) => {
      const business = await fixture.business(null, 'live');
      const reply = await fixture.command({ type: 'setEndpoint', businessId: business.businessId, url });
      expect(reply).toMatchObject({ ok: false, error: { code: 'WEBHOOK_URL_NOT_ALLOWED', status: 422 } });
    });

    it('when delivering, on the address actually connected to', async () => {
      const target = await receiver();
      // Provisioned with a loopback URL (as a rebinding name could resolve to later): never connected to.
      const business = await fixture.business(target.url.replace('127.0.0.1', 'localhost'), 'live');
      await fixture.event(business.businessId, { secret: 'metadata' });
      const [row] = await eventually(async () => {
        const rows = await fixture.deliveries(business.businessId);
        return rows.length ? rows : undefined;
      });
      // The attempt is recorded once it has finished.
      const detail = await eventually(async () => {
        const found = await command<DeliveryDetailResponse>({
          type: 'getDelivery',
          businessId: business.businessId,
          deliveryId: row.id,
        });
        return found.attemptLog.length > 0 ? found : undefined;
      });
      expect(detail.status).not.toBe('succeeded');
      expect(detail.attemptLog[0].error).toContain('not an allowed address');
      expect(target.received).toHaveLength(0);
    });
  });
});
