import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { loadEnv } from '@payments/platform-config';

import { Env } from '../config/env';
import { WebhookSender } from './webhook-sender';

/** A real HTTP receiver on loopback that answers with something it should not leak. */
async function leakyReceiver(): Promise<{ server: Server; url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"internal":"db-password=hunter2"}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, hits: () => hits };
}

describe('sending a webhook to a private address', () => {
  const sender = new WebhookSender(
    loadEnv(Env, {
      API_KEY_SEALING_KEY: 'bG9jYWwtb25seS1rZXktbmV2ZXItdXNlLWluLXByb2Q=',
      WEBHOOK_SECRET_SEALING_KEY: 'bG9jYWwtb25seS1rZXktbmV2ZXItdXNlLWluLXByb2Q=',
      WEBHOOK_TIMEOUT_MS: '2000',
    }),
  );
  let receiver: Awaited<ReturnType<typeof leakyReceiver>>;

  beforeAll(async () => {
    receiver = await leakyReceiver();
  });

  afterAll(async () => {
    receiver.server.close();
    await sender.onApplicationShutdown();
  });

  it('does not connect at all unless private addresses are allowed', async () => {
    const result = await sender.send(receiver.url, '{}', {}, false);
    expect(result).toMatchObject({ statusCode: null, responseBody: null, error: expect.stringContaining('refusing') });
    expect(receiver.hits()).toBe(0);
  });

  it('keeps no answer body from a private address it was allowed to reach', async () => {
    const result = await sender.send(receiver.url, '{}', {}, true);
    expect(result).toMatchObject({ statusCode: 200, responseBody: null, error: null });
    expect(receiver.hits()).toBe(1);
  });

  it('never reaches the cloud metadata address', async () => {
    const result = await sender.send('http://169.254.169.254/latest/meta-data/', '{}', {}, true);
    expect(result).toMatchObject({ statusCode: null, responseBody: null, error: expect.stringContaining('refusing') });
  });
});
