import { Transform } from 'class-transformer';
import { IsIn, IsInt, Matches, Max, Min, ValidateBy } from 'class-validator';

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

/**
 * Whether a key is one of the development keys docker-compose.yml and the local Kubernetes
 * overlay carry in the open: each of them decodes to text that starts `local-`.
 */
export function isDevelopmentKey(value: string, encoding: 'base64' | 'hex'): boolean {
  return Buffer.from(value, encoding).toString('latin1').startsWith('local-');
}

/**
 * Refuses a development key where NODE_ENV is production, unless ALLOW_DEVELOPMENT_KEYS says
 * the environment is a laptop's (compose, the local overlay): anyone can read those keys.
 */
export function DevelopmentKeyRefused(encoding: 'base64' | 'hex'): PropertyDecorator {
  return ValidateBy({
    name: 'developmentKeyRefused',
    validator: {
      validate: (value: unknown, args) => {
        const env = args?.object as { NODE_ENV?: string; ALLOW_DEVELOPMENT_KEYS?: boolean };
        if (env.NODE_ENV !== 'production' || env.ALLOW_DEVELOPMENT_KEYS === true) return true;
        // A key ring lists several keys: none of them may be a development key.
        return typeof value !== 'string' || !value.split(',').some((key) => isDevelopmentKey(key.trim(), encoding));
      },
      defaultMessage: () =>
        'is a development key, published in this repository: production needs its own (docs/deploy.md)',
    },
  });
}

/** A 32-byte key, base64-encoded, as `openssl rand -base64 32` prints it; never a development key in production. */
export function KeySetting(): PropertyDecorator {
  return (target, key) => {
    Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes, base64-encoded (openssl rand -base64 32)' })(
      target,
      key,
    );
    DevelopmentKeyRefused('base64')(target, key);
  };
}

/** The key ring settings each settings class declares, by its prototype. */
const keyRingSettings = new WeakMap<object, string[]>();

/** The names of the key ring settings of `env` (a settings object), its parents' included. */
export function keyRingSettingsOf(env: object): string[] {
  const names: string[] = [];
  for (let prototype = Object.getPrototypeOf(env); prototype; prototype = Object.getPrototypeOf(prototype)) {
    names.push(...(keyRingSettings.get(prototype) ?? []));
  }
  return [...new Set(names)];
}

/**
 * A key ring (libs/platform/crypto KeyRing): one or more 32-byte keys, base64, comma-separated,
 * the first the one that seals; never a development key in production.
 */
export function KeyRingSetting(): PropertyDecorator {
  return (target, key) => {
    keyRingSettings.set(target, [...(keyRingSettings.get(target) ?? []), String(key)]);
    Matches(/^[A-Za-z0-9+/]{43}=(,[A-Za-z0-9+/]{43}=)*$/, {
      message:
        'must list 32-byte keys, base64-encoded, comma-separated, the sealing key first (openssl rand -base64 32)',
    })(target, key);
    ValidateBy({
      name: 'keyRingDistinct',
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' || new Set(value.split(',')).size === value.split(',').length,
        defaultMessage: () => 'lists the same key twice',
      },
    })(target, key);
    DevelopmentKeyRefused('base64')(target, key);
  };
}
