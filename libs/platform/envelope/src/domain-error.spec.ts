import { HttpException } from '@nestjs/common';

import { apiError, DomainError, invalidFields, ValidationFailedError } from './domain-error';
import { toErrorEnvelope } from './to-error-envelope';

describe('VALIDATION_FAILED', () => {
  it('lists each field of a rule that holds between fields, under one message', () => {
    expect(toErrorEnvelope(invalidFields(['from', 'to'], 'from must be before to')).envelope).toEqual({
      status: false,
      statusCode: 422,
      message: 'from must be before to',
      data: {
        code: 'VALIDATION_FAILED',
        errors: [
          { field: 'from', messages: ['from must be before to'] },
          { field: 'to', messages: ['from must be before to'] },
        ],
      },
    });
  });

  it('cannot be built without the fields at fault', () => {
    // Checked by the typecheck: each line below stops compiling if it is accepted.
    // @ts-expect-error apiError builds no VALIDATION_FAILED: ValidationFailedError names the fields
    const fromApiError = () => apiError('VALIDATION_FAILED', 'from must be before to');
    // @ts-expect-error neither does DomainError itself
    const fromDomainError = () => new DomainError('VALIDATION_FAILED', 'bad', 422);
    expect([typeof fromApiError, typeof fromDomainError]).toEqual(['function', 'function']);
    expect(new ValidationFailedError([{ field: 'cursor', messages: ['cursor is bad'] }]).details).toEqual({
      errors: [{ field: 'cursor', messages: ['cursor is bad'] }],
    });
  });

  it('is never what a framework error without fields answers: that is a 400 MALFORMED_REQUEST', () => {
    for (const status of [405, 409, 418, 422]) {
      expect(toErrorEnvelope(new HttpException('Nope', status)).envelope).toEqual({
        status: false,
        statusCode: 400,
        message: 'Nope',
        data: { code: 'MALFORMED_REQUEST' },
      });
    }
    expect(toErrorEnvelope(new HttpException('Forbidden', 403)).envelope.data.code).toBe('FORBIDDEN');
  });
});
