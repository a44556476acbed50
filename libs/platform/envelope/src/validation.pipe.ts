import { ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError } from '@payments/contracts';
import { ValidationFailedError } from './domain-error';

/** Validates DTOs and reports every bad field, nested ones by dotted path, as one 422. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, messages: [...new Set(Object.values(error.constraints))] }] : [];
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}
