import { ErrorCode, FieldError } from '@payments/contracts';

import { errorStatus } from './error-status';

/**
 * Every code but VALIDATION_FAILED: a 422 VALIDATION_FAILED lists the fields at fault in
 * `data.errors` (docs/api.md), so only ValidationFailedError, which takes them, builds one.
 */
export type DomainErrorCode = Exclude<ErrorCode, 'VALIDATION_FAILED'>;

/**
 * A failure the caller can act on. `code` is stable and documented; `message` is for people.
 * Apps raise it with `apiError(code, message)`, which takes the status from the one table of
 * codes in libs/contracts (`ErrorCodes`) and this lib's `errorStatus`, and bad input with
 * `ValidationFailedError` (or `invalidFields`), naming the fields.
 */
export class DomainError extends Error {
  readonly code: string;

  constructor(
    code: DomainErrorCode,
    message: string,
    readonly status: number,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

export class ValidationFailedError extends DomainError {
  /** `message` replaces the summary made from the fields, when one sentence says it better. */
  constructor(
    readonly errors: FieldError[],
    message = summarise(errors),
  ) {
    // The one place a VALIDATION_FAILED is built, so it always carries its fields.
    super('VALIDATION_FAILED' as DomainErrorCode, message, errorStatus.VALIDATION_FAILED, { errors });
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
export function apiError(code: DomainErrorCode, message: string, details: Record<string, unknown> = {}): DomainError {
  return new DomainError(code, message, errorStatus[code], details);
}

/**
 * A 422 for a rule that holds between fields rather than in one (`from` before `to`): each of
 * `fields` is listed with `message`, which is also the envelope's message.
 */
export function invalidFields(fields: string[], message: string): ValidationFailedError {
  return new ValidationFailedError(
    fields.map((field) => ({ field, messages: [message] })),
    message,
  );
}
