import { registerDecorator, ValidationOptions } from 'class-validator';

/** Luhn check digit over a 12 to 19 digit card number. */
export function isLuhnValid(pan: string): boolean {
  if (!/^\d{12,19}$/.test(pan)) return false;
  let sum = 0;
  for (let i = 0; i < pan.length; i += 1) {
    let digit = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export function IsCardNumber(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCardNumber',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be a 12 to 19 digit card number with a valid check digit`,
        ...options,
      },
      validator: { validate: (value: unknown) => typeof value === 'string' && isLuhnValid(value) },
    });
}
