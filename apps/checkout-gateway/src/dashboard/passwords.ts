import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';

/**
 * scrypt, memory-hard: N = 2^15, r = 8 takes 32 MiB and tens of milliseconds a guess, OWASP's
 * recommended floor. The parameters travel with each hash, so they can rise without a migration.
 */
const cost = { N: 2 ** 15, r: 8, p: 1 } as const;
const keyLength = 32;

/** At least this long, at most that: a longer one is all hashing work and no strength. */
export const passwordLength = { min: 12, max: 128 } as const;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      keyLength,
      { ...options, maxmem: 128 * options.N! * options.r! * 2 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** `scrypt$N$r$p$salt$key`, base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` is the one `hash` was made from; false for anything else, a malformed hash included. */
export async function passwordMatches(password: string, hash: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const derived = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}

/**
 * A hash no password matches, verified against when an email has no account, so that a sign-in
 * for an unknown email costs what one for a known email does and answers in the same time.
 */
export const nobodysHash = `scrypt$${cost.N}$${cost.r}$${cost.p}$${randomBytes(16).toString('base64url')}$${randomBytes(keyLength).toString('base64url')}`;
