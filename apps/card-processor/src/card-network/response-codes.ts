import { AuthorisationAnswer } from './card-network';

/** Codes whose outcome is unknown: the issuer may have approved, so the request is reversed. */
const outcomeUnknown = new Set(['91', '96']);

/** What the payer is told for each decline the contract names; any other code is a plain decline. */
const declineReasons: Readonly<Record<string, string>> = {
  '05': 'Declined by the card issuer',
  '14': 'Invalid card number',
  '51': 'Insufficient funds',
  '54': 'Expired card',
  '55': 'Incorrect PIN',
  '57': 'The card is not permitted to make this payment',
  '58': 'The card is not permitted at this merchant',
  '61': 'The amount is over the card’s limit',
};

/** An 0210's DE39 (with DE38 and DE15) as the outcome it means for the payment. */
export function answerOf(responseCode: string, authorisationCode: string | undefined, settlementDate: string | null) {
  if (responseCode === '00') {
    return { outcome: 'approved', responseCode, authorisationCode: authorisationCode ?? '', settlementDate } as const;
  }
  if (outcomeUnknown.has(responseCode)) {
    return { outcome: 'unknown', responseCode, why: `the host answered ${responseCode}` } as const;
  }
  return { outcome: 'declined', responseCode, settlementDate } as const;
}

/** Why a payment the network did not approve failed, as the payer and partner read it. */
export function failureReason(answer: Exclude<AuthorisationAnswer, { outcome: 'approved' }>): string {
  switch (answer.outcome) {
    case 'declined':
      return declineReasons[answer.responseCode] ?? `Declined by the card network (code ${answer.responseCode})`;
    case 'unknown':
      return 'The card network did not confirm the payment; it was reversed and the card was not charged';
    case 'not-sent':
      return 'The card network could not be reached; the card was not charged';
  }
}
