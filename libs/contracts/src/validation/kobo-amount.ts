import { registerDecorator, ValidationOptions } from 'class-validator';

/** ₦1,000,000,000.00: the largest single amount the API accepts, in kobo. */
export const MAX_AMOUNT_KOBO = 100_000_000_000n;

/** A positive whole number of kobo written as a decimal string: "150000", never 1500.00 or "1e3". */
export function isKoboAmount(value: unknown): value is string {
  return typeof value === 'string' && /^[1-9][0-9]{0,14}$/.test(value) && BigInt(value) <= MAX_AMOUNT_KOBO;
}

export function IsKoboAmount(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isKoboAmount',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be a string of a positive whole number of kobo, at most ${MAX_AMOUNT_KOBO}`,
        ...options,
      },
      validator: { validate: isKoboAmount },
    });
}
