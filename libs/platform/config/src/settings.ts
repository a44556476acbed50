import { Transform } from 'class-transformer';
import { IsIn, IsInt, Matches, Max, Min } from 'class-validator';

/** The rules a setting's variable must meet, one decorator a kind of setting. */

/** A whole number from `min` to `max`. */
export function IntSetting(min: number, max: number): PropertyDecorator {
  return (target, key) => {
    IsInt()(target, key);
    Min(min)(target, key);
    Max(max)(target, key);
  };
}

/** `true` or `false`, read from the raw text: implicit conversion would turn the string 'false' into true. */
export function BooleanSetting(): PropertyDecorator {
  return (target, key) => {
    IsIn([true, false])(target, key);
    Transform(
      ({ obj, key: name }: { obj: Record<string, unknown>; key: string }) => obj[name] === true || obj[name] === 'true',
    )(target, key as string);
  };
}

/** A 32-byte key, base64-encoded, as `openssl rand -base64 32` prints it. */
export function KeySetting(): PropertyDecorator {
  return Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes, base64-encoded (openssl rand -base64 32)' });
}
