import { constantTimeEquals, hashSecret, randomAlphanumeric } from './secrets';

describe('secrets', () => {
  it('makes alphanumeric keys of the asked length', () => {
    const key = randomAlphanumeric(16);
    expect(key).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it('hashes deterministically and differently for different secrets', () => {
    expect(hashSecret('a')).toBe(hashSecret('a'));
    expect(hashSecret('a')).not.toBe(hashSecret('b'));
  });

  it('compares equal and unequal strings, including different lengths', () => {
    expect(constantTimeEquals('sk_test_abc', 'sk_test_abc')).toBe(true);
    expect(constantTimeEquals('sk_test_abc', 'sk_test_abd')).toBe(false);
    expect(constantTimeEquals('sk_test_abc', 'sk_test_ab')).toBe(false);
  });
});
