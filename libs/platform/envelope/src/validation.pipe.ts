import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError } from '@payments/contracts';
import { ValidationFailedError } from './domain-error';

/**
 * Validates DTOs and reports every bad field, nested ones by dotted path, as one 422. Before
 * that, any text with a NUL character (in a body, query or path parameter, at any depth) is
 * refused: PostgreSQL cannot store it, and no partner means to send it.
 */
class PlatformValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const field = fieldWithNul(value, metadata.type === 'param' || metadata.type === 'query' ? (metadata.data ?? '') : '');
      if (field !== null) throw new ValidationFailedError([{ field: field || metadata.type, messages: [`${field || metadata.type} must not contain NUL characters`] }]);
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new PlatformValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}

/** The dotted path of the first string holding U+0000 (an object key counts as its object), or null. */
export function fieldWithNul(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = fieldWithNul(item, path ? `${path}.${index}` : String(index));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return path;
      const found = fieldWithNul(item, path ? `${path}.${key}` : key);
      if (found !== null) return found;
    }
  }
  return null;
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, messages: [...new Set(Object.values(error.constraints))] }] : [];
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}
