import { HttpAdapterHost } from '@nestjs/core';
import { PlatformEnv } from '@payments/platform-config';
import Fastify, { FastifyInstance } from 'fastify';

import { requestContext } from './request-context';
import { RequestLineHook } from './request-line';

/**
 * A Fastify instance with the hook installed and one route that answers the request id it can
 * see; a probe's path, for which the hook writes no request line (no logger runs here).
 */
async function serverWith(logRequestContext: boolean): Promise<FastifyInstance> {
  const fastify = Fastify({ genReqId: () => 'req-7' });
  const adapterHost = { httpAdapter: { getInstance: () => fastify } } as unknown as HttpAdapterHost;
  const env = Object.assign(new PlatformEnv(), { LOG_LEVEL: 'silent', LOG_REQUEST_CONTEXT: logRequestContext });
  new RequestLineHook(adapterHost, env).onModuleInit();
  fastify.get('/health/live', async () => {
    await Promise.resolve();
    return { requestId: requestContext.getStore()?.requestId ?? null };
  });
  return fastify;
}

describe('RequestLineHook and LOG_REQUEST_CONTEXT', () => {
  it('serves each request inside its request context by default', async () => {
    const fastify = await serverWith(true);
    const response = await fastify.inject({ method: 'GET', url: '/health/live' });
    expect(response.json()).toEqual({ requestId: 'req-7' });
    await fastify.close();
  });

  it('enters no request context when the setting is off', async () => {
    const fastify = await serverWith(false);
    const response = await fastify.inject({ method: 'GET', url: '/health/live' });
    expect(response.json()).toEqual({ requestId: null });
    await fastify.close();
  });
});
