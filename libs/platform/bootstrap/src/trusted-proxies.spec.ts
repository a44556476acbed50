import { trustedProxies } from '@payments/platform-config';
import Fastify, { FastifyInstance } from 'fastify';

/** A server trusting what TRUSTED_PROXIES names, as createApp builds it; it answers the client's address. */
function serverTrusting(setting: string | undefined): FastifyInstance {
  const server = Fastify({ trustProxy: trustedProxies({ NODE_ENV: 'production', TRUSTED_PROXIES: setting }) });
  server.get('/', (request) => ({ ip: request.ip }));
  return server;
}

async function clientOf(server: FastifyInstance, peer: string, forwardedFor?: string): Promise<string> {
  const response = await server.inject({
    url: '/',
    remoteAddress: peer,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });
  return (response.json() as { ip: string }).ip;
}

describe('the client address behind TRUSTED_PROXIES', () => {
  const ingress = serverTrusting('10.244.0.0/16');
  const twoProxies = serverTrusting('10.244.0.0/16,192.0.2.10');
  const noProxy = serverTrusting('none');

  it('is the address the trusted proxy appended, whatever the client wrote before it', async () => {
    expect(await clientOf(ingress, '10.244.3.7', '203.0.113.7')).toBe('203.0.113.7');
    expect(await clientOf(ingress, '10.244.3.7', '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    // A client naming a proxy's address cannot pass as the proxy: the walk stops at the client.
    expect(await clientOf(ingress, '10.244.3.7', '198.51.100.1, 10.244.9.9, 203.0.113.7')).toBe('203.0.113.7');
  });

  it('walks from the right past each trusted proxy to the first address none of them is', async () => {
    expect(await clientOf(twoProxies, '10.244.3.7', '198.51.100.1, 203.0.113.7, 192.0.2.10')).toBe('203.0.113.7');
    expect(await clientOf(twoProxies, '10.244.3.7', '2001:db8::1, 10.244.1.1, 192.0.2.10')).toBe('2001:db8::1');
  });

  it('is the peer itself when the peer is no trusted proxy, whatever it forwards', async () => {
    expect(await clientOf(ingress, '203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
    // A private peer is not trusted for being private once production names its proxies.
    expect(await clientOf(ingress, '192.168.1.20', '198.51.100.1')).toBe('192.168.1.20');
  });

  it('is always the peer when no proxy is trusted', async () => {
    expect(await clientOf(noProxy, '10.244.3.7', '198.51.100.1')).toBe('10.244.3.7');
    expect(await clientOf(noProxy, '127.0.0.1', '198.51.100.1')).toBe('127.0.0.1');
  });
});
