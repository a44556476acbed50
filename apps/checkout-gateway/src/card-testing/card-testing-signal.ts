import { RateLimitPolicy } from '@payments/platform-rate-limit';

import { AttemptCounts } from './card-attempts.repository';

/** Which count gave card testing away: one card tried too often, too many cards from one payer, too many declines at one business. */
export type CardTestingSignal = 'card' | 'address' | 'business';

/** Each signal's threshold and sliding window; a signal that is `off` is absent. */
export type CardTestingThresholds = Partial<Record<CardTestingSignal, RateLimitPolicy>>;

/**
 * Whether an attempt is refused, and by which signal: beyond a card's `quota` attempts, beyond
 * `quota` different cards from one address, or once a business has had `quota` declines, each
 * within its window. Attempts still awaiting card-processor's answer may each be a decline, so
 * they count against the business's quota until answered. A retry of an attempt already let
 * through is never refused.
 */
export function cardTestingSignal(counts: AttemptCounts, thresholds: CardTestingThresholds): CardTestingSignal | null {
  if (counts.alreadyAdmitted) return null;
  if (thresholds.card && counts.cardAttempts >= thresholds.card.quota) return 'card';
  if (thresholds.address && counts.otherCardsFromAddress >= thresholds.address.quota) return 'address';
  // An attempt still awaiting card-processor's answer may yet be a decline.
  const possibleDeclines = counts.businessDeclines + counts.businessInFlight;
  if (thresholds.business && possibleDeclines >= thresholds.business.quota) return 'business';
  return null;
}

/** What the payer and the partner are told, per signal. */
export const refusalMessages: Record<CardTestingSignal, string> = {
  card: 'This card has been tried too many times in a short while; try again later or pay another way',
  address: 'Too many different cards have been tried from this address; try again later or pay another way',
  business:
    'Card payments to this business are paused after many declines or attempts at once; try again later or pay another way',
};
