import { Logger } from '@nestjs/common';

import { commandReply } from './command-reply';
import { DomainError, ValidationFailedError } from './domain-error';

describe('commandReply', () => {
  const logger = new Logger('test');
  beforeEach(() => {
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  });
  const failWith = (error: unknown) => commandReply(logger, 'test.command', () => Promise.reject(error));

  it('answers the result of work that succeeds', async () => {
    expect(await commandReply(logger, 'test.command', () => Promise.resolve({ id: 1 }))).toEqual({
      ok: true,
      data: { id: 1 },
    });
  });

  it('carries a domain error back with its code and status', async () => {
    expect(await failWith(new DomainError('OUTLET_NOT_FOUND', 'Outlet 01ABC not found', 404))).toEqual({
      ok: false,
      error: { code: 'OUTLET_NOT_FOUND', message: 'Outlet 01ABC not found', status: 404 },
    });
  });

  it('carries a refusal of bad input back with the fields at fault', async () => {
    const errors = [
      { field: 'events', messages: ['the default endpoint receives every event and only its url changes'] },
    ];
    expect(await failWith(new ValidationFailedError(errors))).toEqual({
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'the default endpoint receives every event and only its url changes',
        status: 422,
        errors,
      },
    });
  });

  it.each([
    [
      'PostgreSQL shutting down',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
  ])('answers 503 SERVICE_UNAVAILABLE, safe to retry, for %s', async (_case, error) => {
    expect(await failWith(error)).toMatchObject({ ok: false, error: { code: 'SERVICE_UNAVAILABLE', status: 503 } });
  });

  it('answers 500 without details for anything else, and logs it', async () => {
    expect(await failWith(new TypeError("Cannot read properties of undefined (reading 'id')"))).toEqual({
      ok: false,
      error: { code: 'INTERNAL_ERROR', message: 'The request could not be processed', status: 500 },
    });
    expect(logger.error).toHaveBeenCalled();
  });
});
