import { ValidateBy } from 'class-validator';

import { isPolicyText } from './rate-limit-policy';

/** An env setting holding a policy: `<requests>/<seconds>s` (`6000/60s`), or `off`. */
export function RateLimitSetting(): PropertyDecorator {
  return ValidateBy({
    name: 'rateLimitPolicy',
    validator: {
      validate: isPolicyText,
      defaultMessage: () => '$property must be <requests>/<seconds>s, such as 6000/60s, or off',
    },
  });
}
