import { BusinessMode } from '@payments/contracts';

import { apiError } from './domain-error';

/**
 * Only sandbox rails are connected: a live business asking for `what` (a plural, "Card
 * payments") is refused with 403 SANDBOX_ONLY, never given a simulated result.
 */
export function requireSandboxRail(mode: BusinessMode, what: string): void {
  if (mode !== 'test') throw apiError('SANDBOX_ONLY', `${what} are not available to live businesses yet`);
}
