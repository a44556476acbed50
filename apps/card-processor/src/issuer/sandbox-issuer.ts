import { Injectable } from '@nestjs/common';
import { BusinessMode, VerificationStep } from '@payments/contracts';

export interface CardForAuthorisation {
  pan: string;
  cardExpiryDate: string;
}

export type IssuerDecision = { approved: true } | { approved: false; reason: string };

/** Verification steps a sandbox card asks for, in order; unlisted cards ask for none. */
export const sandboxScenarios: Record<string, readonly VerificationStep[]> = {
  '5060990000000000019': [],
  '5060990000000000027': ['pin', 'otp'],
  '5060990000000000035': ['otp'],
  '4000000000001000': ['avs'],
  '4000000000003006': ['3ds'],
  '5060990000000000068': ['birthday'],
  '5060990000000000076': ['phone'],
};

export const SANDBOX_PIN = '1234';
export const SANDBOX_OTP = '123456';

/** Sandbox cards with a fixed outcome; every other valid, unexpired card is approved. */
export const sandboxDeclines: Record<string, string> = {
  '4000000000000002': 'Do not honour',
  '4000000000009995': 'Insufficient funds',
};

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
