import { isLuhnValid, SANDBOX_OTP, SANDBOX_PIN, sandboxDeclines, sandboxScenarios } from '@payments/contracts';
import { readDocsJson } from '@payments/testing';

import { SandboxIssuer } from './sandbox-issuer';

const published = readDocsJson<{ scenario: string; cardNumber: string; pin: string; otp: string }[]>('test-cards.json');

describe('sandbox test cards', () => {
  it('publishes exactly the cards the sandbox issuer knows, each Luhn-valid, with the fixed PIN and OTP', () => {
    expect(published.map((card) => card.cardNumber).sort()).toEqual(
      [...Object.keys(sandboxScenarios), ...Object.keys(sandboxDeclines)].sort(),
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

  it('never approves a test card for a live business, and declines expired cards', () => {
    const issuer = new SandboxIssuer();
    expect(issuer.authorise({ pan: '5060990000000000019', cardExpiryDate: '12/30' }, 'live')).toMatchObject({
      approved: false,
    });
    expect(issuer.authorise({ pan: '5060990000000000019', cardExpiryDate: '01/20' }, 'test')).toEqual({
      approved: false,
      reason: 'Expired card',
    });
    expect(issuer.authorise({ pan: '5060990000000000019', cardExpiryDate: '2812' }, 'test')).toEqual({
      approved: true,
    });
  });
});
