import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError } from '@payments/contracts';

import { ValidationFailedError } from './domain-error';

/**
 * Validates DTOs and reports every bad field, nested ones by dotted path, as one 422. Before
 * that, input no handler should see is refused (see `refusedInput`).
 */
class PlatformValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const refused = refusedInput(
        value,
        metadata.type === 'param' || metadata.type === 'query' ? (metadata.data ?? '') : '',
      );
      if (refused !== null) {
        throw new ValidationFailedError([
          { field: refused.field || metadata.type, messages: [`${refused.field || metadata.type} ${refused.reason}`] },
        ]);
      }
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

/** Deeper than any request of ours nests; validators and serialisers recurse, so more could exhaust the stack. */
export const maxInputDepth = 32;

/** A UTF-16 surrogate with no partner: JSON's \uD800 escapes allow it, but it is no character. */
const loneSurrogate = /\p{Surrogate}/u;

/** Why text is refused before any validator reads it, or null when it is acceptable. */
function refusedText(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  // Validators decode and encode text (isEmail through URI functions) and throw on these.
  if (loneSurrogate.test(text)) return 'must be well-formed Unicode text (it holds a lone surrogate)';
  return null;
}

/**
 * The first part of a request's input (body, query or path parameter) that is refused before
 * validation, with its dotted path (an object key counts as its object), or null: text holding
 * U+0000, which PostgreSQL cannot store and no partner means to send, text that is not
 * well-formed Unicode, or nesting deeper than `maxInputDepth`. Walks without recursion, so no
 * input can exhaust the stack here.
 */
export function refusedInput(value: unknown, path: string): { field: string; reason: string } | null {
  const pending: [unknown, string, number][] = [[value, path, 0]];
  while (pending.length > 0) {
    const [item, at, depth] = pending.pop()!;
    if (typeof item === 'string') {
      const reason = refusedText(item);
      if (reason !== null) return { field: at, reason };
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth >= maxInputDepth) return { field: at, reason: `must not nest more than ${maxInputDepth} levels deep` };
    const entries: [string, unknown][] = Array.isArray(item)
      ? item.map((child, index) => [String(index), child])
      : Object.entries(item);
    // Reversed onto the stack, so the first field in document order is reported first.
    for (const [key, child] of entries.reverse()) {
      const refusedKey = refusedText(key);
      if (refusedKey !== null) return { field: at, reason: refusedKey };
      const field = at ? `${at}.${key}` : key;
      // class-transformer takes an object's `constructor` for its type: a JSON key of that name would crash it.
      if (key === 'constructor') return { field, reason: 'is not a field this API accepts' };
      pending.push([child, field, depth + 1]);
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
