import { ArgumentsHost, Logger } from '@nestjs/common';

import { ApiExceptionFilter } from './api-exception.filter';
import { DomainError, ValidationFailedError } from './domain-error';

/** An HTTP request with the id Fastify gave it, and a reply that records what was sent. */
function httpHost(requestId: string): { host: ArgumentsHost; sent: () => unknown; headers: Record<string, unknown> } {
  let body: unknown;
  const headers: Record<string, unknown> = {};
  const reply = {
    header: (name: string, value: unknown) => ((headers[name] = value), reply),
    status: () => reply,
    type: () => reply,
    send: (payload: unknown) => (body = payload),
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => ({ id: requestId }), getResponse: () => reply }),
  } as unknown as ArgumentsHost;
  return { host, sent: () => body, headers };
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

  it('answers Retry-After when the error says how long to wait, and not otherwise', () => {
    const temporary = httpHost('req-retry');
    new ApiExceptionFilter().catch(
      new DomainError('SERVICE_UNAVAILABLE', 'still being set up', 503, { retryAfterSeconds: 2 }),
      temporary.host,
    );
    expect(temporary.headers).toEqual({ 'Retry-After': 2 });

    const refused = httpHost('req-422');
    new ApiExceptionFilter().catch(
      new ValidationFailedError([{ field: 'amount', messages: ['amount is bad'] }]),
      refused.host,
    );
    expect(refused.headers).toEqual({});
  });
});
