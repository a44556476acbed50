import Fastify from 'fastify';

import { admitBeforeBody, admittedBeforeBody } from './admission';

describe('admission before the body is read', () => {
  it('tells a guard its own admission ran, and never takes another admission for it', async () => {
    const fastify = Fastify();
    const admits: string[] = [];
    admitBeforeBody(fastify, 'client-address', async (request) => void admits.push(request.url));
    fastify.post('/page', { config: { admission: 'client-address' } }, async (request) => ({
      clientAddress: admittedBeforeBody(request, 'client-address'),
      partnerKey: admittedBeforeBody(request, 'partner-key'),
    }));
    const answer = await fastify.inject({ method: 'POST', url: '/page', payload: { a: 1 } });
    expect(answer.json()).toEqual({ clientAddress: true, partnerKey: false });
    expect(admits).toEqual(['/page']);
    await fastify.close();
  });
});
