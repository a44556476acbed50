import { WakeUp } from './wake-up';

describe('WakeUp', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sleeps the whole interval when no one rings', async () => {
    const sleep = new WakeUp().sleep(1000);
    await jest.advanceTimersByTimeAsync(999);
    await expect(sleep).not.toHaveSettled();
    await jest.advanceTimersByTimeAsync(1);
    await expect(sleep).toHaveSettled();
  });

  it('wakes a sleeper at once when rung', async () => {
    const wakeUp = new WakeUp();
    const sleep = wakeUp.sleep(1000);
    wakeUp.ring();
    await expect(sleep).toHaveSettled();
  });

  it('keeps a ring that came while no one slept, for the next sleep only', async () => {
    const wakeUp = new WakeUp();
    wakeUp.ring();
    await expect(wakeUp.sleep(1000)).toHaveSettled();
    await expect(wakeUp.sleep(1000)).not.toHaveSettled();
  });
});
