import { isLuhnValid, SANDBOX_OTP, SANDBOX_PIN, sandboxDeclinedCards, sandboxScenarios } from '@payments/contracts';
import { readDocsJson } from '@payments/testing';

import { SandboxVerification } from './sandbox-verification';

const published = readDocsJson<{ scenario: string; cardNumber: string; pin: string; otp: string }[]>('test-cards.json');

describe('sandbox test cards', () => {
  it('publishes exactly the cards the sandbox issuer knows, each Luhn-valid, with the fixed PIN and OTP', () => {
    expect(published.map((card) => card.cardNumber).sort()).toEqual(
      [...Object.keys(sandboxScenarios), ...sandboxDeclinedCards].sort(),
    );
    for (const card of published) {
      expect(isLuhnValid(card.cardNumber)).toBe(true);
      expect([card.pin, card.otp]).toEqual([SANDBOX_PIN, SANDBOX_OTP]);
    }
  });

  it('has one card per verification scenario', () => {
    const scenarios = Object.values(sandboxScenarios).map((steps) => steps[0] ?? 'none');
    expect(scenarios.sort()).toEqual(['3ds', 'avs', 'birthday', 'none', 'otp', 'phone', 'pin']);
  });

  it('walks a sandbox card through its steps for test businesses only', () => {
    const verification = new SandboxVerification();
    expect(verification.steps('5060990000000000027', 'test')).toEqual(['pin', 'otp']);
    expect(verification.steps('5060990000000000027', 'live')).toEqual([]);
    expect(verification.steps('4111111111111111', 'test')).toEqual([]);
  });
});
