import { IsIn } from 'class-validator';

/** `test` keys act on the sandbox; `live` keys on real rails. Every business is one or the other. */
export const businessModes = ['test', 'live'] as const;

export type BusinessMode = (typeof businessModes)[number];

export function IsBusinessMode(): PropertyDecorator {
  return IsIn([...businessModes]);
}
