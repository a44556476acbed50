import { ArgumentsHost, Logger } from '@nestjs/common';

import { ApiExceptionFilter } from './api-exception.filter';

/** An HTTP request with the id Fastify gave it, and a reply that records what was sent. */
function httpHost(requestId: string): { host: ArgumentsHost; sent: () => unknown } {
  let body: unknown;
  const reply = {
    status: () => reply,
    type: () => reply,
    send: (payload: unknown) => (body = payload),
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => ({ id: requestId }), getResponse: () => reply }),
  } as unknown as ArgumentsHost;
  return { host, sent: () => body };
}

describe('ApiExceptionFilter', () => {
  afterEach(() => jest.restoreAllMocks());

  it('names the request id on the line of an unexpected error, with no request context to lend it', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, sent } = httpHost('req-500');
    new ApiExceptionFilter().catch(new Error('boom'), host);
    const envelope = sent() as { statusCode: number; data: { errorId: string } };
    expect(envelope.statusCode).toBe(500);
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: 'req-500', errorId: envelope.data.errorId }),
      'unexpected error',
    );
  });

  it('names the request id on the line of a 503', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { host } = httpHost('req-503');
    const restarting = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    new ApiExceptionFilter().catch(restarting, host);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ requestId: 'req-503' }), expect.any(String));
  });
});
