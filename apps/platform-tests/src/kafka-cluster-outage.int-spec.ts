import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { eventually } from '@payments/testing';

import { AppName, repoRoot } from './apps';
import { ChaosPlatform, platformApps } from './chaos/chaos-platform';
import { Partner } from './chaos/load';

// Starting the cluster and five apps, two minutes without brokers, and the way back.
jest.setTimeout(600_000);

const outageMs = 120_000;
/** How soon after the brokers are back a payment and its webhook must go through again. */
const recoveryMs = 30_000;

interface Answer {
  status: number;
  body: { status?: boolean; statusCode?: number; message?: string; data?: Record<string, unknown> };
}

/** A partner's endpoint: every request it got, in full. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; close: () => void }> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, bodies, close: () => server.close() };
}

/**
 * Every app on a secured cluster of three, one instance each, while all three brokers are
 * killed for two minutes: each must stay up on its own (no exit, nothing restarted for it),
 * answer 503 while Kafka is away, and take payments and deliver webhooks again soon after the
 * brokers return. An app whose Kafka consumer gave up for good would stop itself, or run on
 * without consuming.
 */
describe('the platform through an outage of every broker of the cluster', () => {
  const platform = new ChaosPlatform(
    { OUTBOX_POLL_INTERVAL_MS: '500', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' },
    { cluster: true },
  );
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let partner: Partner;

  const gateway = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${platform.url('checkout-gateway')}${path}`, {
      method,
      headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  const checkout = () =>
    eventually(async () => {
      const created = await gateway('POST', '/payin/charge/requests', {
        amount: '250000',
        accountName: 'Outage Shop',
        paymentMethod: ['card'],
      }).catch(() => undefined);
      return created?.status === 200 ? String(created.body.data?.reference) : undefined;
    }, 60_000);
  const payByCard = (reference: string) =>
    gateway('POST', `/checkout/${reference}/card-payment`, {
      cardNumber: '5060990000000000019',
      expiryDate: '12/30',
      cvv: '123',
    });
  const health = async (app: AppName, probe: 'live' | 'ready'): Promise<Answer> => {
    const response = await fetch(`${platform.url(app)}/health/${probe}`, { signal: AbortSignal.timeout(10_000) });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  /** A checkout paid by a card that needs no step, and its webhook received: resolves once both are seen. */
  const paymentWithWebhook = async (): Promise<void> => {
    const reference = await checkout();
    await eventually(async () => {
      const paid = await payByCard(reference).catch(() => undefined);
      return paid?.status === 200 && paid.body.data?.transactionStatus === 'SUCCESS' ? true : undefined;
    }, 60_000);
    await eventually(() => (receiver.bodies.some((body) => body.includes(reference)) ? true : undefined), 60_000);
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    await platform.start();
    const created = JSON.parse(
      platform.cli('checkout-gateway', 'partner-create', ['--name', 'Outage Partner', '--json']),
    ) as Partner;
    partner = { ...created, outlets: [] };
    // Onboarding reaches the dispatcher and outlet-service over Kafka.
    const answers = (method: string, path: string, body?: unknown) =>
      eventually(
        async () => (await gateway(method, path, body).catch(() => undefined))?.status === 200 || undefined,
        60_000,
      );
    await answers('PUT', '/webhooks/endpoint', { url: receiver.url });
    await answers('GET', '/wallets/settlement');
    await paymentWithWebhook();
  });

  afterAll(async () => {
    try {
      // What the apps printed, to tell why one exited or what it waited for.
      writeFileSync(join(repoRoot, '.data/kafka-cluster-outage.log'), platform.output());
    } finally {
      await platform.stop();
      receiver?.close();
    }
  });

  it('keeps every app up, answers 503 while the brokers are away, and serves within 30 s of their return', async () => {
    const reference = await checkout();
    await Promise.all([1, 2, 3].map((node) => platform.cluster!.stopNode(node, { abruptly: true })));
    const outageEnds = Date.now() + outageMs;

    // Kafka is needed to charge a card: the caller is told to retry, in the usual envelope.
    const refused = await payByCard(reference);
    expect(refused).toMatchObject({ status: 503, body: { status: false, statusCode: 503 } });
    expect(refused.body.message).toEqual(expect.any(String));

    // An orchestrator sees every app alive and still ready: it restarts none and keeps each in its
    // Service, so callers get the envelope's 503, not the ingress's page. Each says what it saw.
    for (const app of platformApps) {
      expect([app, await health(app, 'live')]).toMatchObject([app, { status: 200 }]);
      const seen = await eventually(async () => {
        const ready = await health(app, 'ready');
        return (ready.body.data?.kafka as { status?: string } | undefined)?.status === 'down' ? ready : undefined;
      }, 30_000);
      expect([app, seen]).toMatchObject([
        app,
        {
          status: 200,
          body: { data: { schema: { status: 'up' }, database: { status: 'up' }, kafka: { status: 'down' } } },
        },
      ]);
    }

    const down: string[] = [];
    while (Date.now() < outageEnds) {
      down.push(...platformApps.filter((app) => platform.alive(app) !== 1));
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect({ exited: platform.crashes, down }).toEqual({ exited: [], down: [] });

    await platform.cluster!.start();
    const back = Date.now();
    await paymentWithWebhook();
    const servedAfterMs = Date.now() - back;

    expect(platform.crashes).toEqual([]);
    expect(servedAfterMs).toBeLessThanOrEqual(recoveryMs);
    for (const app of platformApps) expect([app, platform.alive(app)]).toEqual([app, 1]);
  });
});
