import { ErrorCode, FieldError } from '@payments/contracts';

import { errorStatus } from './error-status';

/**
 * A failure the caller can act on. `code` is stable and documented; `message` is for people.
 * Apps raise it with `apiError(code, message)`, which takes the status from the one table of
 * codes in libs/contracts (`ErrorCodes`) and this lib's `errorStatus`.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationFailedError extends DomainError {
  constructor(readonly errors: FieldError[]) {
    super('VALIDATION_FAILED', summarise(errors), 422, { errors });
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Missing or invalid API credentials') {
    super('UNAUTHORIZED', message, 401);
  }
}

function summarise(errors: FieldError[]): string {
  // One bad field: its first message is the spec's wording ("accountName is required").
  if (errors.length === 1) return errors[0].messages[0];
  return `Invalid fields: ${errors.map((error) => error.field).join(', ')}`;
}

/** A domain error whose status comes from the platform table of codes. */
export function apiError(code: ErrorCode, message: string, details: Record<string, unknown> = {}): DomainError {
  return new DomainError(code, message, errorStatus[code], details);
}
