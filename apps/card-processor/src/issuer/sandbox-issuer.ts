import { Injectable } from '@nestjs/common';

export interface CardForAuthorisation {
  pan: string;
  cardExpiryDate: string;
}

export type IssuerDecision = { approved: true } | { approved: false; reason: string };

/** Sandbox cards with a fixed outcome; every other valid, unexpired card is approved. */
export const sandboxDeclines: Record<string, string> = {
  '4000000000000002': 'Do not honour',
  '4000000000009995': 'Insufficient funds',
};

/**
 * The sandbox issuer that test keys talk to. Live businesses are declined: no live card rail
 * is connected yet, and a live card must never be approved by a simulator.
 */
@Injectable()
export class SandboxIssuer {
  authorise(card: CardForAuthorisation, mode: 'test' | 'live', now = new Date()): IssuerDecision {
    if (mode === 'live') return { approved: false, reason: 'Live card processing is not available yet' };
    const decline = sandboxDeclines[card.pan];
    if (decline) return { approved: false, reason: decline };
    if (isExpired(card.cardExpiryDate, now)) return { approved: false, reason: 'Expired card' };
    return { approved: true };
  }
}

/** Card expiry as YYMM (EMV tag 5F24 order): valid through the end of that month. */
export function isExpired(yymm: string, now: Date): boolean {
  const year = 2000 + Number(yymm.slice(0, 2));
  const month = Number(yymm.slice(2, 4));
  if (month < 1 || month > 12) return true;
  return new Date(Date.UTC(year, month, 1)) <= now;
}
