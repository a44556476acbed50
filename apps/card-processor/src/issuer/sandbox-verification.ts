import { Injectable } from '@nestjs/common';
import { BusinessMode, sandboxDeclines, sandboxScenarios, VerificationStep } from '@payments/contracts';

export interface CardForAuthorisation {
  pan: string;
  cardExpiryDate: string;
}

export type IssuerDecision = { approved: true } | { approved: false; reason: string };

/**
 * The sandbox issuer that test keys talk to. Live businesses are declined: no live card rail
 * is connected yet, and a live card must never be approved by a simulator. The gateway refuses
 * their payments before asking; this holds for a command that reaches us anyway.
 */
@Injectable()
export class SandboxIssuer {
  /**
   * The steps a card must pass before the decision. A live business's card is declined whatever
   * it is, so it is never walked through a sandbox card's steps (nor asked for the sandbox PIN).
   */
  verificationSteps(pan: string, mode: BusinessMode): VerificationStep[] {
    return mode === 'live' ? [] : [...(sandboxScenarios[pan] ?? [])];
  }

  authorise(card: CardForAuthorisation, mode: BusinessMode, now = new Date()): IssuerDecision {
    if (mode === 'live') return { approved: false, reason: 'Live card processing is not available yet' };
    const decline = sandboxDeclines[card.pan];
    if (decline) return { approved: false, reason: decline };
    if (isExpired(card.cardExpiryDate, now)) return { approved: false, reason: 'Expired card' };
    return { approved: true };
  }
}

/** Card expiry as YYMM (EMV tag 5F24 order) or MM/YY (as printed): valid through the end of that month. */
export function isExpired(expiry: string, now: Date): boolean {
  const printed = /^(\d{2})\/(\d{2})$/.exec(expiry);
  const year = 2000 + Number(printed ? printed[2] : expiry.slice(0, 2));
  const month = Number(printed ? printed[1] : expiry.slice(2, 4));
  if (month < 1 || month > 12) return true;
  return new Date(Date.UTC(year, month, 1)) <= now;
}
