import { waitForOnboarding } from './onboarding-wait';

describe('waitForOnboarding', () => {
  it('returns once every service has confirmed', async () => {
    const answers = [['outlet-service', 'webhook-dispatcher'], ['webhook-dispatcher'], []];
    let reads = 0;
    const pending = await waitForOnboarding(() => Promise.resolve(answers[Math.min(reads++, 2)]), 5000, 1);
    expect([pending, reads]).toEqual([[], 3]);
  });

  it('answers the services still awaited when the time is up', async () => {
    const started = Date.now();
    const pending = await waitForOnboarding(() => Promise.resolve(['webhook-dispatcher']), 50, 10);
    expect(pending).toEqual(['webhook-dispatcher']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('asks once and does not wait with no time given', async () => {
    let reads = 0;
    const pending = await waitForOnboarding(() => {
      reads += 1;
      return Promise.resolve(['outlet-service']);
    }, 0);
    expect([pending, reads]).toEqual([['outlet-service'], 1]);
  });
});
