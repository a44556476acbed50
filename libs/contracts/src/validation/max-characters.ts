import { registerDecorator, ValidationOptions } from 'class-validator';

/** At most `max` characters, counted as Unicode code points: 200 "é" or 200 emoji fit in 200. */
export function MaxCharacters(max: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'maxCharacters',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [max],
      options: { message: `${String(propertyName)} cannot exceed ${max} characters`, ...options },
      validator: { validate: (value: unknown) => typeof value !== 'string' || [...value].length <= max },
    });
}
