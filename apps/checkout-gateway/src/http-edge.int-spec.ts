import { connect } from 'node:net';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PartnerCredentials } from '@payments/contracts';
import { startTestApp } from '@payments/testing';

import { gatewayApp } from './app';
import { BusinessesService } from './businesses/businesses.service';

/** What the gateway answers to `bytes` sent on a connection of their own, as text. */
function rawAnswer(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

describe('the gateway edge answers what docs/api.md promises', () => {
  let app: NestFastifyApplication;
  let partner: PartnerCredentials;
  let keys: Record<string, string>;

  beforeAll(async () => {
    ({ app } = await startTestApp({ ...gatewayApp, kafkaConsumer: false }));
    partner = await app.get(BusinessesService).provision({ name: 'Edge Ltd', mode: 'test', webhookUrl: null });
    keys = { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret };
  });

  afterAll(() => app.close());

  const get = (url: string) => app.inject({ method: 'GET', url, headers: keys });
  const fieldsOf = (response: { json: () => { data: { errors?: { field: string }[] } } }) =>
    response.json().data.errors?.map((error) => error.field);

  it.each([
    ['a reversed range of GET /refunds', '/refunds?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', ['from', 'to']],
    ['a cursor of GET /refunds this API did not give', '/refunds?cursor=bm90LWEtY3Vyc29y', ['cursor']],
    [
      'a reversed range of GET /transactions',
      '/transactions?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
      ['from', 'to'],
    ],
    [
      'a reversed range of GET /transactions/export',
      '/transactions/export?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
      ['from', 'to'],
    ],
    [
      'an export over 366 days',
      '/transactions/export?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z',
      ['from', 'to'],
    ],
  ])('answers %s with 422 VALIDATION_FAILED naming the fields in data.errors', async (_case, url, fields) => {
    const response = await get(url);
    expect([response.statusCode, response.json().data.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(fieldsOf(response)).toEqual(fields);
  });

  it.each([
    ['malformed JSON', '{"externalReference": ', 'application/json', 400],
    ['a body over the limit', JSON.stringify({ accountName: 'x'.repeat(70_000) }), 'application/json', 413],
    ['JSON sent as text', JSON.stringify({ accountName: 'Ada' }), 'text/plain', 415],
    ['JSON sent as a form', JSON.stringify({ accountName: 'Ada' }), 'application/x-www-form-urlencoded', 415],
  ])('answers %s to a keyed route with its RateLimit headers and the request id', async (_case, body, type, status) => {
    const response = await app.inject({
      method: 'POST',
      url: '/outlets',
      payload: body,
      headers: { ...keys, 'content-type': type, 'x-request-id': 'edge-1' },
    });
    expect([response.statusCode, response.json().statusCode]).toEqual([status, status]);
    expect(response.headers['ratelimit-policy']).toMatch(/^"partner-api";q=\d+;w=\d+$/);
    expect(response.headers.ratelimit).toMatch(/^"partner-api";r=\d+;t=\d+$/);
    expect(response.headers['x-request-id']).toBe('edge-1');
  });

  it("answers a hosted-page JSON body sent as text with 415 and the page's RateLimit headers", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/checkout/session/CHK-00000000000000000000000000/card-payment',
      payload: JSON.stringify({ cardNumber: '5061460410120223210' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect([response.statusCode, response.json().data.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(response.headers['ratelimit-policy']).toMatch(/^"hosted-page";/);
  });

  it("still reads the sandbox bank page's form post", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/sandbox/3ds/ch_1?checkoutReference=not-a-checkout',
      payload: 'decision=approve',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    // Read, then refused for its link, not for its type.
    expect([response.statusCode, response.json().data.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
  });

  it('gives the answers of the HTTP parser and of a URL that does not decode an x-request-id', async () => {
    const badUrl = await app.inject({ method: 'GET', url: '/outlets/%E0%A4%A', headers: keys });
    expect([badUrl.statusCode, badUrl.json().data.code]).toEqual([400, 'MALFORMED_REQUEST']);
    expect(badUrl.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as { port: number };
    const tooLarge = await rawAnswer(
      port,
      `GET /health/live HTTP/1.1\r\nHost: x\r\nx-big: ${'h'.repeat(20_000)}\r\n\r\n`,
    );
    expect(tooLarge).toMatch(/^HTTP\/1.1 431 /);
    expect(tooLarge).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
    const notHttp = await rawAnswer(port, 'HELLO / HTTP/1.1\r\n\r\n');
    expect(notHttp).toMatch(/^HTTP\/1.1 400 /);
    expect(notHttp).toContain('"code":"MALFORMED_REQUEST"');
    expect(notHttp).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
  });
});
