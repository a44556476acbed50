import { registerDecorator, ValidationOptions } from 'class-validator';

/**
 * True when every number inside `value` is a whole number JavaScript holds exactly. Other
 * numbers (1e-7, 12.5, 2^60) are written differently by different JSON libraries, so a receiver
 * re-serialising a signed webhook body would compute another signature.
 */
export function hasOnlyWholeNumbers(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  if (Array.isArray(value)) return value.every(hasOnlyWholeNumbers);
  if (value !== null && typeof value === 'object') return Object.values(value).every(hasOnlyWholeNumbers);
  return true;
}

export function HasOnlyWholeNumbers(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'hasOnlyWholeNumbers',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} may hold whole numbers up to 2^53 only; send other numbers as strings`,
        ...options,
      },
      validator: { validate: hasOnlyWholeNumbers },
    });
}
