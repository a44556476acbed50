/**
 * Work that concurrent callers with the same key share: a caller that finds the key's run in
 * flight waits for its result instead of starting the same work again. A run's failure stays
 * its own caller's (it may have failed on that caller's deadline): a caller that joined it
 * runs the work itself. For idempotent work only, which a second run repeats harmlessly.
 */
export class JoinedRuns<K, V> {
  private readonly inFlight = new Map<K, Promise<V>>();

  async run(key: K, work: () => Promise<V>): Promise<V> {
    const running = this.inFlight.get(key);
    if (running) {
      const joined = await running.then(
        (value) => ({ value }),
        () => undefined,
      );
      if (joined) return joined.value;
    }
    const run = work();
    this.inFlight.set(key, run);
    try {
      return await run;
    } finally {
      if (this.inFlight.get(key) === run) this.inFlight.delete(key);
    }
  }

  /** How many keys have a run in flight. */
  get size(): number {
    return this.inFlight.size;
  }
}
