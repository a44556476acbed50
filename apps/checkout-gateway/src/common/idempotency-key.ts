import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ValidationFailedError } from '@payments/platform-envelope';
import type { FastifyRequest } from 'fastify';

const header = 'idempotency-key';

/** Documents the optional Idempotency-Key header of a create. */
export function AcceptsIdempotencyKey(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 printable characters. A retry with the same key and body returns the first answer; the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED.',
    }),
  );
}

/** Documents the Idempotency-Key header of a command that must never run twice. */
export function RequiresIdempotencyKey(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: true,
      description:
        'Up to 255 printable characters, unique per refund you mean. A retry with the same key and body returns the first answer; the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED.',
    }),
  );
}

/** The request's Idempotency-Key, checked: 1 to 255 printable ASCII characters, or absent. */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<FastifyRequest>().headers[header];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw new ValidationFailedError([
      { field: 'Idempotency-Key', messages: ['Idempotency-Key must be 1 to 255 printable ASCII characters'] },
    ]);
  }
  return value;
});
