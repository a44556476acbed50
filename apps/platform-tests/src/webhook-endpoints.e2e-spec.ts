import { PartnerEventName, PartnerEventV1, Topics } from '@payments/contracts';
import { createKafkaClient } from '@payments/platform-kafka';
import { eventually, testEnvironment, testEvent } from '@payments/testing';
import { Partitioners } from 'kafkajs';
import { Webhook } from 'standardwebhooks';

import { useApps } from './apps';
import { callGateway, createPartner, PartnerCredentials } from './partners';
import { ReceivedRequest, RecordingReceiver } from './receiver';

jest.setTimeout(240_000);

/** A receiver that finds a delivery by its event id. */
class Receiver extends RecordingReceiver {
  of(eventId: string): ReceivedRequest | undefined {
    return this.requests.find((request) => request.headers['x-event-id'] === eventId);
  }

  /** How many times the event arrived. */
  count(eventId: string): number {
    return this.requests.filter((request) => request.headers['x-event-id'] === eventId).length;
  }
}

interface EndpointView {
  endpointId: string;
  url: string | null;
  events: string[];
  enabled: boolean;
  status: string;
  signingSecret: string;
  previousSecretExpiresAt: string | null;
}

const localReceivers = { WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' };

describe('webhook endpoints of the partner’s choosing', () => {
  useApps(['checkout-gateway', 'webhook-dispatcher'], { every: localReceivers });
  const [defaultReceiver, ordersReceiver, ledgerReceiver] = [new Receiver(), new Receiver(), new Receiver()];
  let partner: PartnerCredentials;

  const call = <T>(method: string, path: string, body?: unknown) => callGateway<T>(partner, method, path, body);

  /** Publishes partner events for the business, as the services that own them do; their ids. */
  async function publish(...events: PartnerEventName[]): Promise<string[]> {
    const kafka = createKafkaClient({ brokers: testEnvironment().KAFKA_BROKERS!.split(','), clientId: 'endpoints' });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const envelopes = events.map((event) =>
      testEvent(
        PartnerEventV1,
        { event, eventData: { amount: '100', transactionStatus: 'SUCCESS' } },
        partner.businessId,
      ),
    );
    await producer.send({
      topic: Topics.partnerEvents.name,
      acks: -1,
      messages: envelopes.map((envelope) => ({ key: partner.businessId, value: JSON.stringify(envelope) })),
    });
    await producer.disconnect();
    return envelopes.map((envelope) => envelope.eventId);
  }

  beforeAll(async () => {
    await Promise.all([defaultReceiver, ordersReceiver, ledgerReceiver].map((receiver) => receiver.start()));
    partner = createPartner('Endpoints Partner', ['--webhook-url', defaultReceiver.url]);
    await eventually(
      async () => ((await call('GET', '/webhooks/endpoints')).status === 200 ? true : undefined),
      60_000,
    );
  });

  afterAll(() => [defaultReceiver, ordersReceiver, ledgerReceiver].forEach((receiver) => receiver.stop()));

  let orders: EndpointView;
  let ledger: EndpointView;

  it('adds endpoints, each with its own secret, and lists them after the default one', async () => {
    const created = await call<EndpointView>('POST', '/webhooks/endpoints', {
      url: ordersReceiver.url,
      events: ['checkout.success', 'checkout.failed'],
      description: 'Order system',
    });
    expect(created.status).toBe(200);
    orders = created.body.data;
    expect(orders).toMatchObject({
      endpointId: expect.stringMatching(/^we_/),
      url: ordersReceiver.url,
      events: ['checkout.success', 'checkout.failed'],
      enabled: true,
      status: 'active',
      signingSecret: expect.stringMatching(/^whsec_/),
      previousSecretExpiresAt: null,
    });
    ledger = (await call<EndpointView>('POST', '/webhooks/endpoints', { url: ledgerReceiver.url, events: ['*'] })).body
      .data;

    const listed = await call<{ items: EndpointView[] }>('GET', '/webhooks/endpoints');
    expect(listed.body.data.items.map((endpoint) => endpoint.endpointId)).toEqual([
      'default',
      orders.endpointId,
      ledger.endpointId,
    ]);
    expect(listed.body.data.items[0]).toMatchObject({ url: defaultReceiver.url, events: ['*'] });
    const secrets = new Set(listed.body.data.items.map((endpoint) => endpoint.signingSecret));
    expect(secrets.size).toBe(3);
  });

  it('refuses an event filter outside the catalogue, and an unknown endpoint', async () => {
    const bad = await call<{ code: string }>('POST', '/webhooks/endpoints', {
      url: ordersReceiver.url,
      events: ['checkout.success', 'money.everywhere'],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.data.code).toBe('VALIDATION_FAILED');
    const missing = await call<{ code: string }>('GET', '/webhooks/endpoints/we_NOPE');
    expect(missing.status).toBe(404);
    expect(missing.body.data.code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
  });

  it('delivers each event to every endpoint whose filter takes it, signed with that endpoint’s secret', async () => {
    const [checkoutEvent, fundingEvent] = await publish('checkout.success', 'fundAccount.success');
    await eventually(
      async () =>
        ledgerReceiver.of(fundingEvent) && ordersReceiver.of(checkoutEvent) && defaultReceiver.of(fundingEvent)
          ? true
          : undefined,
      60_000,
    );
    expect(ordersReceiver.of(fundingEvent)).toBeUndefined();
    const verify = (secret: string, request: ReceivedRequest) =>
      new Webhook(secret).verify(request.body, request.headers);
    expect(verify(orders.signingSecret, ordersReceiver.of(checkoutEvent)!)).toMatchObject({
      event: 'checkout.success',
    });
    expect(verify(ledger.signingSecret, ledgerReceiver.of(fundingEvent)!)).toMatchObject({
      event: 'fundAccount.success',
    });
    expect(() => verify(ledger.signingSecret, ordersReceiver.of(checkoutEvent)!)).toThrow();

    // Each delivery names its endpoint.
    const deliveries = await call<{ items: { endpointId: string; eventId: string }[] }>(
      'GET',
      `/webhooks/deliveries?endpointId=${orders.endpointId}`,
    );
    expect(deliveries.body.data.items).toEqual([
      expect.objectContaining({ endpointId: orders.endpointId, eventId: checkoutEvent }),
    ]);
  });

  it('rolls a secret: during the grace both signatures are sent, and either verifies', async () => {
    const previous = ledger.signingSecret;
    const rolled = await call<EndpointView>('POST', `/webhooks/endpoints/${ledger.endpointId}/roll-secret`, {
      gracePeriodHours: 1,
    });
    expect(rolled.status).toBe(200);
    expect(rolled.body.data.signingSecret).not.toBe(previous);
    expect(Date.parse(rolled.body.data.previousSecretExpiresAt!)).toBeGreaterThan(Date.now() + 50 * 60_000);

    // A sender reads an endpoint at most every 5 s: the first delivery after that carries both.
    await new Promise((resolve) => setTimeout(resolve, 5500));
    const [eventId] = await publish('refund.processed');
    const request = await eventually(async () => ledgerReceiver.of(eventId), 60_000);
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [previous, rolled.body.data.signingSecret]) {
      expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({ event: 'refund.processed' });
    }
  });

  it('holds a disabled endpoint’s deliveries, and sends them when it is enabled again', async () => {
    const disabled = await call<EndpointView>('PATCH', `/webhooks/endpoints/${orders.endpointId}`, { enabled: false });
    expect(disabled.body.data).toMatchObject({ enabled: false, events: ['checkout.success', 'checkout.failed'] });
    await new Promise((resolve) => setTimeout(resolve, 5500));
    const [eventId] = await publish('checkout.failed');
    const held = await eventually(async () => {
      const page = await call<{ items: { eventId: string; status: string }[] }>(
        'GET',
        `/webhooks/deliveries?endpointId=${orders.endpointId}&status=held`,
      );
      return page.body.data.items.find((delivery) => delivery.eventId === eventId);
    }, 30_000);
    expect(held.status).toBe('held');
    expect(ordersReceiver.of(eventId)).toBeUndefined();
    // A test event asked for is sent at once: it is how a partner checks an endpoint before enabling it.
    const test = await call<{ eventId: string }>('POST', '/webhooks/test', { endpointId: orders.endpointId });
    await eventually(async () => ordersReceiver.of(test.body.data.eventId), 30_000);
    expect(ordersReceiver.of(eventId)).toBeUndefined();

    await call('PATCH', `/webhooks/endpoints/${orders.endpointId}`, { enabled: true });
    await eventually(async () => ordersReceiver.of(eventId), 30_000);
  });

  it('sends the test event to the endpoint named, and replays a delivery to the endpoint it went to', async () => {
    const test = await call<{ endpointId: string; eventId: string; target: string }>('POST', '/webhooks/test', {
      endpointId: ledger.endpointId,
    });
    expect(test.body.data).toMatchObject({ endpointId: ledger.endpointId, target: 'test' });
    await eventually(async () => ledgerReceiver.of(test.body.data.eventId), 30_000);
    expect(defaultReceiver.of(test.body.data.eventId)).toBeUndefined();

    // With no body, the default endpoint, as before.
    const toDefault = await call<{ endpointId: string; eventId: string }>('POST', '/webhooks/test');
    expect(toDefault.body.data.endpointId).toBe('default');
    await eventually(async () => defaultReceiver.of(toDefault.body.data.eventId), 30_000);

    const page = await call<{ items: { deliveryId: string; eventId: string }[] }>(
      'GET',
      `/webhooks/deliveries?endpointId=${orders.endpointId}&limit=1`,
    );
    const [latest] = page.body.data.items;
    const replay = await call<{ endpointId: string; target: string }>(
      'POST',
      `/webhooks/deliveries/${latest.deliveryId}/replay`,
    );
    expect(replay.body.data).toMatchObject({ endpointId: orders.endpointId, target: 'replay' });
    await eventually(async () => (ordersReceiver.count(latest.eventId) >= 2 ? true : undefined), 30_000);
  });

  it('keeps the default endpoint whole: only its URL changes, and it cannot be deleted', async () => {
    const filtered = await call<{ code: string }>('PATCH', '/webhooks/endpoints/default', {
      events: ['checkout.success'],
    });
    expect(filtered.status).toBe(422);
    const deleted = await call<{ code: string }>('DELETE', '/webhooks/endpoints/default');
    expect(deleted.status).toBe(422);
    const webhookUrlOfBusiness = async () =>
      (await call<{ webhookUrl: string }>('GET', '/business')).body.data.webhookUrl;
    await call('PUT', '/webhooks/endpoint', { url: ordersReceiver.url });
    expect(await webhookUrlOfBusiness()).toBe(ordersReceiver.url);
    const moved = await call<EndpointView>('PATCH', '/webhooks/endpoints/default', { url: ledgerReceiver.url });
    expect(moved.body.data).toMatchObject({ endpointId: 'default', url: ledgerReceiver.url });
    expect((await call<{ url: string }>('GET', '/webhooks/endpoint')).body.data.url).toBe(ledgerReceiver.url);
    expect(await webhookUrlOfBusiness()).toBe(ledgerReceiver.url);
  });

  it('deletes an added endpoint, and stops delivering to it', async () => {
    const deleted = await call<EndpointView>('DELETE', `/webhooks/endpoints/${orders.endpointId}`);
    expect(deleted.status).toBe(200);
    expect((await call('GET', `/webhooks/endpoints/${orders.endpointId}`)).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const [eventId] = await publish('checkout.success');
    await eventually(async () => ledgerReceiver.of(eventId), 30_000);
    expect(ordersReceiver.of(eventId)).toBeUndefined();
  });

  it('allows ten endpoints besides the default one', async () => {
    const listed = await call<{ items: EndpointView[] }>('GET', '/webhooks/endpoints');
    const room = 10 - (listed.body.data.items.length - 1);
    for (let i = 0; i < room; i += 1) {
      expect(
        (await call('POST', '/webhooks/endpoints', { url: ledgerReceiver.url, events: ['refund.failed'] })).status,
      ).toBe(200);
    }
    const over = await call<{ code: string }>('POST', '/webhooks/endpoints', { url: ledgerReceiver.url });
    expect(over.status).toBe(422);
    expect(over.body.data.code).toBe('WEBHOOK_ENDPOINT_LIMIT');
  });
});
