/**
 * `await expect(promise).toHaveSettled()`: whether the promise has settled once the fake timers
 * due by now have run. For the tests of timers, sleeps and wake-ups.
 */
expect.extend({
  async toHaveSettled(received: Promise<unknown>) {
    let settled = false;
    const settle = () => void (settled = true);
    received.then(settle, settle);
    await jest.advanceTimersByTimeAsync(0);
    return {
      pass: settled,
      message: () => `expected the promise ${this.isNot ? 'not ' : ''}to have settled`,
    };
  },
});

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      toHaveSettled(): Promise<R>;
    }
  }
}

export {};
