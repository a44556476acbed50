import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { PartnerEventV1, Topics } from '@payments/contracts';
import { createKafkaClient } from '@payments/platform-kafka';
import { eventually, testEnvironment, testEvent } from '@payments/testing';
import { Partitioners } from 'kafkajs';

import { appPorts, RunningApp, spawnApp, waitForReady } from './apps';
import { callGateway, createPartner, PartnerCredentials } from './partners';

jest.setTimeout(240_000);

const dispatcherSettings = {
  // Thirteen attempts within seconds: a 30% failure rate leaves no event undelivered.
  WEBHOOK_RETRY_SCHEDULE_MS: '100,200,300,400,500,600,700,800,900,1000,1000,1000',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_PER_ENDPOINT_CONCURRENCY: '16',
  WEBHOOK_CIRCUIT_THRESHOLD: '1000',
  // The receivers listen on loopback, as a developer's would.
  WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true',
};

/** A receiver that fails 30% of requests at random and counts the event ids it accepted. */
class FlakyReceiver {
  readonly accepted = new Set<string>();
  readonly events: string[] = [];
  private readonly server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (Math.random() < 0.3) return void response.writeHead(500).end('try again');
      this.accepted.add(String(request.headers['x-event-id']));
      this.events.push((JSON.parse(body) as { event: string }).event);
      response.writeHead(200).end('ok');
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const call = <T>(partner: PartnerCredentials, method: string, path: string, body?: unknown) =>
  callGateway<T>(partner, method, path, body);

describe('webhooks end to end', () => {
  const receiver = new FlakyReceiver();
  let gatewayApp: RunningApp;
  let dispatcher: RunningApp;
  let partner: PartnerCredentials;

  beforeAll(async () => {
    await receiver.start();
    gatewayApp = spawnApp('checkout-gateway');
    dispatcher = spawnApp('webhook-dispatcher', dispatcherSettings);
    await Promise.all([
      waitForReady(appPorts['checkout-gateway'], gatewayApp),
      waitForReady(appPorts['webhook-dispatcher'], dispatcher),
    ]);
    partner = createPartner('Webhook Partner', ['--webhook-url', receiver.url]);
    await eventually(async () => {
      const endpoint = await call<{ url: string }>(partner, 'GET', '/webhooks/endpoint');
      return endpoint.status === 200 && endpoint.body.data.url === receiver.url ? true : undefined;
    }, 60_000);
  });

  afterAll(async () => {
    for (const app of [gatewayApp, dispatcher]) app.process.kill('SIGTERM');
    await Promise.all([gatewayApp.exited, dispatcher.exited]);
    await receiver.stop();
  });

  it('shows the endpoint and its signing secret, and refuses a URL that is not http(s)', async () => {
    const endpoint = await call<{ url: string; signingSecret: string; status: string }>(
      partner,
      'GET',
      '/webhooks/endpoint',
    );
    expect(endpoint.body.data).toMatchObject({
      url: receiver.url,
      status: 'active',
      signingSecret: expect.stringMatching(/^whsec_/),
    });
    const bad = await call(partner, 'PUT', '/webhooks/endpoint', { url: 'ftp://example.com/hooks' });
    expect(bad.status).toBe(422);
  });

  it('delivers every one of 2,000 events although the dispatcher is killed -9 mid-burst', async () => {
    const kafka = createKafkaClient({ brokers: testEnvironment().KAFKA_BROKERS!.split(','), clientId: 'burst' });
    const producer = kafka.producer({ idempotent: true, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const ids: string[] = [];
    const messages = Array.from({ length: 2000 }, (_, i) => {
      const envelope = testEvent(
        PartnerEventV1,
        { event: 'fundAccount.success', eventData: { amount: String(i + 1), transactionStatus: 'SUCCESS' } },
        partner.businessId,
      );
      ids.push(envelope.eventId);
      return { key: partner.businessId, value: JSON.stringify(envelope) };
    });
    await producer.send({ topic: Topics.partnerEvents.name, acks: -1, messages });
    await producer.disconnect();

    await eventually(async () => (receiver.accepted.size >= 300 ? true : undefined), 60_000);
    dispatcher.process.kill('SIGKILL');
    await dispatcher.exited;
    const acceptedBeforeRestart = receiver.accepted.size;
    expect(acceptedBeforeRestart).toBeLessThan(2000);

    dispatcher = spawnApp('webhook-dispatcher', dispatcherSettings);
    await waitForReady(appPorts['webhook-dispatcher'], dispatcher);
    await eventually(async () => (ids.every((id) => receiver.accepted.has(id)) ? true : undefined), 150_000);

    // Outcomes are recorded in batches, a moment after the receiver answered the last one.
    const succeeded = () =>
      call<{ total: number }>(
        partner,
        'GET',
        '/webhooks/deliveries?status=succeeded&event=fundAccount.success&limit=1',
      );
    const total = await eventually(async () => {
      const { body } = await succeeded();
      return body.data.total >= 2000 ? body.data.total : undefined;
    }, 30_000);
    expect(total).toBe(2000);
  });

  it('lists a delivery with its attempts, replays it, and sends a test event', async () => {
    const page = await call<{ items: { deliveryId: string; eventId: string }[] }>(
      partner,
      'GET',
      '/webhooks/deliveries?limit=1',
    );
    const [latest] = page.body.data.items;
    const detail = await call<{ attemptLog: { statusCode: number }[] }>(
      partner,
      'GET',
      `/webhooks/deliveries/${latest.deliveryId}`,
    );
    expect(detail.status).toBe(200);
    expect(detail.body.data.attemptLog.at(-1)!.statusCode).toBe(200);

    const before = receiver.events.length;
    expect((await call(partner, 'POST', `/webhooks/deliveries/${latest.deliveryId}/replay`)).status).toBe(200);
    expect((await call(partner, 'POST', '/webhooks/test')).status).toBe(200);
    await eventually(
      async () =>
        receiver.events.slice(before).includes('webhook.test') && receiver.events.length >= before + 2
          ? true
          : undefined,
      30_000,
    );

    const unknown = await call(partner, 'GET', '/webhooks/deliveries/01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknown.status).toBe(404);
  });
});
