import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { approvedPosCard, eventually, samplePosPayload } from '@payments/testing';

import { allApps, AppName, useApps } from './apps';
import {
  callGateway,
  createCheckout,
  createPartner,
  PartnerCredentials,
  registerTerminal,
  submitPos,
} from './partners';

jest.setTimeout(300_000);

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}

interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { spans: Omit<ReceivedSpan, 'service'>[] }[];
  }[];
}

/** An OTLP/HTTP (JSON) receiver, as a collector would be: keeps every span and every raw export. */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly exports: string[] = [];
  private readonly server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') this.receive(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private receive(body: string): void {
    this.exports.push(body);
    for (const { resource, scopeSpans } of (JSON.parse(body) as OtlpExport).resourceSpans) {
      const service = resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue;
      for (const { spans } of scopeSpans) for (const span of spans) this.spans.push({ ...span, service: service! });
    }
  }
}

/** A webhook receiver that accepts every delivery at once. */
function acceptingReceiver(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end('ok'));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A caller's own trace: the `traceparent` it sends, and the ids the platform's spans must hang from. */
function callerTrace() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, headers: { traceparent: `00-${traceId}-${spanId}-01` } };
}

describe('traces across the services', () => {
  const otlp = new OtlpReceiver();
  let webhooks: Server;
  beforeAll(async () => {
    await otlp.start();
    webhooks = await acceptingReceiver();
  });
  useApps(allApps, () => ({
    // Exported within a moment rather than every five seconds, with room for every span: earlier
    // suites may leave thousands of messages that the apps trace as they work through them, and a
    // full queue (2,048 spans by default) would drop this suite's spans with theirs.
    every: {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_BSP_MAX_QUEUE_SIZE: '100000',
    },
    'webhook-dispatcher': { WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' },
  }));
  let partner: PartnerCredentials;
  let outlet: { outletId: string; collectionWallet: { walletId: string; accountNumber: string } };
  let depositWallet: string;

  /**
   * Waits until the trace holds a span from every one of `services` and a webhook delivery, and
   * every span of it hangs from the caller's span or another span of the trace. A parent may be
   * exported after its children (an app's export queue can be long after a backlog), so a span
   * whose parent has not arrived is waited for; one whose parent never arrives fails the test.
   */
  const traceOf = async (caller: ReturnType<typeof callerTrace>, services: AppName[]) => {
    const found = () => {
      const trace = otlp.trace(caller.traceId);
      const seen = new Set(trace.map((span) => span.service));
      const delivered = trace.some((span) => span.name === 'POST webhook');
      const ids = new Set([caller.spanId, ...trace.map((span) => span.spanId)]);
      const orphans = trace.filter((span) => !ids.has(span.parentSpanId ?? ''));
      return { trace, seen, delivered, orphans };
    };
    // Generous: the dispatcher may first work through partner events earlier suites left on the topic.
    return eventually(() => {
      const { trace, seen, delivered, orphans } = found();
      return delivered && services.every((service) => seen.has(service)) && orphans.length === 0 ? trace : undefined;
    }, 120_000).catch((error: Error) => {
      const { trace, seen, delivered, orphans } = found();
      const held = `${trace.length} spans, from ${[...seen].join(', ') || 'no service'}`;
      const parentless = orphans.map((span) => `${span.service}: ${span.name}`).join(', ') || 'none';
      throw new Error(
        `${error.message}: the trace holds ${held}, ${delivered ? 'with' : 'without'} the webhook; ` +
          `spans whose parent is not in it: ${parentless}`,
      );
    });
  };

  beforeAll(async () => {
    const { port } = webhooks.address() as AddressInfo;
    partner = createPartner('Traced Partner', ['--webhook-url', `http://127.0.0.1:${port}/hooks`]);
    outlet = await eventually(async () => {
      const created = await callGateway<typeof outlet & { depositWallet: { walletId: string } }>(
        partner,
        'POST',
        '/outlets',
        { accountName: 'Traced Shop' },
      );
      if (created.status !== 200) return undefined;
      depositWallet = created.body.data.depositWallet.walletId;
      return created.body.data;
    }, 30_000);
    const funded = await callGateway(
      partner,
      'POST',
      `/sandbox/virtual-accounts/${outlet.collectionWallet.accountNumber}/credit`,
      { amount: '100000' },
    );
    expect(funded.status).toBe(200);
  });

  afterAll(async () => {
    await new Promise((resolve) => webhooks?.close(resolve));
    await otlp.stop();
  });

  it('follows an internal transfer from the gateway through outlet-service to its webhook', async () => {
    const caller = callerTrace();
    const transfer = await callGateway(
      partner,
      'POST',
      '/transfer/internal',
      {
        reference: `traced-${caller.traceId}`,
        amount: '30000',
        sourceWalletId: outlet.collectionWallet.walletId,
        destinationWalletId: depositWallet,
      },
      caller.headers,
    );
    expect(transfer.status).toBe(200);
    const spans = await traceOf(caller, ['checkout-gateway', 'outlet-service', 'webhook-dispatcher']);
    const names = spans.map((span) => `${span.service}: ${span.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'checkout-gateway: POST /transfer/internal',
        'checkout-gateway: send outlet.commands.v1',
        'outlet-service: process outlet.commands.v1',
        'webhook-dispatcher: POST webhook',
      ]),
    );
    // The PostgreSQL statements made for the transfer are in it too.
    expect(spans.some((span) => span.service === 'outlet-service' && span.name.startsWith('pg.query'))).toBe(true);
  });

  it('follows a card payment from the gateway through card-processor and outlet-service to its webhook', async () => {
    // The business's first card payment asks outlet-service whether it knows the business, unless
    // the gateway's background confirmation (slow on a busy machine) already did: that question
    // belongs to no later payment, and not to the one traced here.
    const first = await createCheckout(partner, ['card']);
    const card = { cardNumber: '5060990000000000019', expiryDate: '12/30', cvv: '123' };
    expect((await callGateway(partner, 'POST', `/checkout/${first}/card-payment`, card)).status).toBe(200);
    const reference = await createCheckout(partner, ['card']);
    const caller = callerTrace();
    const paid = await callGateway(partner, 'POST', `/checkout/${reference}/card-payment`, card, caller.headers);
    expect(paid.body.data).toMatchObject({ transactionStatus: 'SUCCESS' });
    const trace = await traceOf(caller, ['checkout-gateway', 'card-processor', 'outlet-service', 'webhook-dispatcher']);
    // After the capture the answer crosses processes twice: card-processor → outlet-service with
    // the charge's event, and outlet-service's reply to the gateway, which asks no one again.
    const messages = trace
      .filter((span) => /^(send|create) /.test(span.name))
      .map((span) => `${span.service}: ${span.name}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'checkout-gateway: send card.commands.v1',
        'card-processor: create card.charges.v1',
        'outlet-service: send command.replies.v1',
      ]),
    );
    expect(messages).not.toContain('card-processor: send command.replies.v1');
    expect(messages).not.toContain('checkout-gateway: send outlet.commands.v1');
  });

  it('follows a POS submission from pos-ingest through card-processor and outlet-service to its webhook', async () => {
    const serial = `SN-TRACED-${Date.now()}`;
    await registerTerminal(partner.businessId, serial, outlet.outletId);
    const caller = callerTrace();
    const submitted = await submitPos(serial, partner.posEncryptionKey, samplePosPayload(), caller.headers);
    expect(submitted.status).toBe(200);
    await traceOf(caller, ['pos-ingest', 'card-processor', 'outlet-service', 'webhook-dispatcher']);
  });

  it('exports no card number, card security code or API secret', () => {
    const exported = otlp.exports.join('\n');
    expect(exported.length).toBeGreaterThan(0);
    for (const secret of [approvedPosCard, '5060990000000000019', partner.apiSecret, partner.apiKey]) {
      expect(exported).not.toContain(secret);
    }
  });
});
