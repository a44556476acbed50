import { IsUrl, isURL, registerDecorator, ValidationOptions } from 'class-validator';

const validatorOptions = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/**
 * True when `value` is an http(s) URL that the WHATWG parser, which every sender and browser
 * uses, reads as one. validator.js alone accepts hosts the parser refuses (a private-use
 * character among the digits of an IPv4 address), which would fail only later, on delivery.
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  return ['http:', 'https:'].includes(new URL(value).protocol);
}

/** An absolute http(s) URL; hosts without a TLD (localhost, an IP address) are fine. */
export function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    const message = `${String(propertyName)} must be an http(s) URL`;
    // IsUrl keeps `format: url` in the OpenAPI document. The parser's check runs only on what
    // IsUrl accepted, so a field gets one message, not two.
    IsUrl(validatorOptions, { message, ...options })(target, propertyName);
    registerDecorator({
      name: 'isHttpUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message, ...options },
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !isURL(value, validatorOptions) || isHttpUrl(value),
      },
    });
  };
}
