import { WakeUp } from './wake-up';

/** Whether `promise` has settled once timers due by now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await jest.advanceTimersByTimeAsync(0);
  return done;
}

describe('WakeUp', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sleeps the whole interval when no one rings', async () => {
    const sleep = new WakeUp().sleep(1000);
    await jest.advanceTimersByTimeAsync(999);
    expect(await settled(sleep)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(sleep)).toBe(true);
  });

  it('wakes a sleeper at once when rung', async () => {
    const wakeUp = new WakeUp();
    const sleep = wakeUp.sleep(1000);
    wakeUp.ring();
    expect(await settled(sleep)).toBe(true);
  });

  it('keeps a ring that came while no one slept, for the next sleep only', async () => {
    const wakeUp = new WakeUp();
    wakeUp.ring();
    expect(await settled(wakeUp.sleep(1000))).toBe(true);
    expect(await settled(wakeUp.sleep(1000))).toBe(false);
  });
});
