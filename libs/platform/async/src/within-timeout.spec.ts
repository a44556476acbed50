import { TimedOutError, withinTimeout } from './within-timeout';

describe('withinTimeout', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("answers with the work's answer when it comes in time, and clears its timer", async () => {
    await expect(withinTimeout(Promise.resolve(7), 1000)).resolves.toBe(7);
    expect(jest.getTimerCount()).toBe(0);
  });

  it("fails with the work's own failure when it fails in time", async () => {
    await expect(withinTimeout(Promise.reject(new Error('refused')), 1000)).rejects.toThrow('refused');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('fails with TimedOutError once the time has passed, and drops a late failure', async () => {
    let fail: (error: Error) => void = () => undefined;
    const late = new Promise<number>((_resolve, reject) => (fail = reject));
    const answer = withinTimeout(late, 1000);
    const settled = expect(answer).rejects.toEqual(new TimedOutError(1000));
    await jest.advanceTimersByTimeAsync(1000);
    await settled;
    fail(new Error('too late')); // handled: jest would report an unhandled rejection
    await jest.advanceTimersByTimeAsync(0);
  });
});
