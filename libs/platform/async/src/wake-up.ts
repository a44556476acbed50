/**
 * The sleep of a loop that polls a table: up to a poll interval, cut short by `ring()`. A ring
 * while the loop is busy is kept, so its next sleep returns at once and no wake-up is lost.
 */
export class WakeUp {
  private rung = false;
  private wake?: () => void;

  ring(): void {
    this.rung = true;
    this.wake?.();
  }

  /** Resolves after `ms`, when rung meanwhile, or at once when rung since the last sleep. */
  sleep(ms: number): Promise<void> {
    if (this.rung) {
      this.rung = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.rung = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
