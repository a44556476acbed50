import { Transform } from 'class-transformer';
import { isISO8601, registerDecorator, ValidationOptions } from 'class-validator';

// The instants PostgreSQL's timestamptz and JavaScript's Date both hold: year 1 to 9999.
const earliest = Date.parse('0001-01-01T00:00:00.000Z');
const latest = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The instant an ISO 8601 date or time names, as UTC with milliseconds
 * (`2026-11-27T10:00:00.000Z`), or null when it names none that every reader agrees on: not
 * strict ISO 8601 (a day that does not exist), a form JavaScript cannot read (week dates such
 * as `2026-W47`, ordinal dates, compact `20261127`), or a year before 1 or after 9999.
 * A date without a time is its midnight in UTC, and a time without an offset is UTC.
 */
export function canonicalInstant(value: unknown): string | null {
  if (typeof value !== 'string' || !isISO8601(value, { strict: true, strictSeparator: true })) return null;
  // Date.parse reads a date-time without an offset as local time: such input is UTC here.
  const withOffset = /T[^Z+-]*$/.test(value) ? `${value}Z` : value;
  const at = Date.parse(withOffset);
  if (!Number.isFinite(at) || at < earliest || at > latest) return null;
  return new Date(at).toISOString();
}

/**
 * An instant in ISO 8601, read once here and passed on in one canonical form, so the
 * gateway's checks, PostgreSQL and any header built from it see the same instant.
 */
export function IsInstant(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    Transform(({ value }: { value: unknown }) => canonicalInstant(value) ?? value)(target, propertyName as string);
    registerDecorator({
      name: 'isInstant',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be an ISO 8601 date or date-time that exists, such as 2026-11-27 or 2026-11-27T10:00:00Z`,
        ...options,
      },
      validator: { validate: (value: unknown) => typeof value === 'string' && canonicalInstant(value) === value },
    });
  };
}
