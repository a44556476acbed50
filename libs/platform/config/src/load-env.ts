import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

type EnvClass<T> = new () => T;

/** Raised at boot when the environment is unusable; the message names every bad variable. */
export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

/**
 * Reads and validates the environment into a typed Env instance. Values are never echoed in
 * the error: a misconfigured secret must not end up in a crash log.
 */
export function loadEnv<T extends object>(envClass: EnvClass<T>, source: NodeJS.ProcessEnv = process.env): T {
  const known = new Set(Object.keys(new envClass()));
  const raw = Object.fromEntries(Object.entries(source).filter(([key, value]) => value !== '' && known.has(key)));
  const env = plainToInstance(envClass, raw, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false, forbidUnknownValues: true });
  if (errors.length > 0) throw new InvalidEnvironmentError(errors.map(describe));
  const together = (env as { settingProblems?: () => string[] }).settingProblems?.() ?? [];
  if (together.length > 0) throw new InvalidEnvironmentError(together);
  return env;
}

function describe(error: ValidationError): string {
  const reasons = Object.values(error.constraints ?? {}).map((reason) => reason.replace(`${error.property} `, ''));
  return `${error.property}: ${reasons.join('; ') || 'is invalid'}`;
}
