import { VerificationStep } from './verification-steps';

/**
 * The sandbox's published test cards (docs/test-cards.json): the verification steps each asks
 * for, in order. card-processor walks them before the card network decides; the gateway leaves these numbers
 * out of its card-testing counts, so a partner's test suite may use them as often as it likes.
 */
export const sandboxScenarios: Readonly<Record<string, readonly VerificationStep[]>> = {
  '5060990000000000019': [],
  '5060990000000000027': ['pin', 'otp'],
  '5060990000000000035': ['otp'],
  '4000000000001000': ['avs'],
  '4000000000003006': ['3ds'],
  '5060990000000000068': ['birthday'],
  '5060990000000000076': ['phone'],
};

/**
 * Sandbox cards the development card host declines (do not honour, insufficient funds); it
 * approves every other valid, unexpired card.
 */
export const sandboxDeclinedCards: readonly string[] = ['4000000000000002', '4000000000009995'];

export const SANDBOX_PIN = '1234';
export const SANDBOX_OTP = '123456';

export function isSandboxTestCard(cardNumber: string): boolean {
  return cardNumber in sandboxScenarios || sandboxDeclinedCards.includes(cardNumber);
}
