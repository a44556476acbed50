import { DomainError } from './domain-error';
import { requireSandboxRail } from './sandbox-only';

describe('requireSandboxRail', () => {
  it('lets a test business through and refuses a live one with 403 SANDBOX_ONLY naming the rail', () => {
    expect(() => requireSandboxRail('test', 'Refunds')).not.toThrow();
    let refusal: unknown;
    try {
      requireSandboxRail('live', 'Refunds');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      code: 'SANDBOX_ONLY',
      status: 403,
      message: 'Refunds are not available to live businesses yet',
    });
  });
});
