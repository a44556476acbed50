/**
 * Reconnect delays: doubling from `initialMs` up to `maxMs`, each jittered down to as little as
 * half of it, so the connections of a pool (and of every instance) do not all knock on a host
 * that is coming back at the same instant.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
    /** A number in [0, 1); `Math.random` but for tests. */
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next attempt; each call counts one more failure. */
  next(): number {
    // Capped exponent: 2 ** 1000 is Infinity, and Infinity times the jitter is no delay at all.
    const ceiling = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    return Math.round(ceiling / 2 + (ceiling / 2) * this.random());
  }

  /** After a sign-on: the next failure starts again from the shortest delay. */
  reset(): void {
    this.failures = 0;
  }
}
