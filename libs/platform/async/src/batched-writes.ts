interface Waiting<T> {
  item: T;
  written: () => void;
  failed: (error: unknown) => void;
}

/**
 * Writes items in batches without a timer per item: the first item is written at once, and items
 * that arrive while a write is in flight go together in the next one (at most `maxBatch` a write).
 * Idle, each item goes alone; busy, a few large writes replace many small ones (group commit).
 * Each caller's promise settles with its own batch's write.
 *
 * With `lingerMs`, where one write costs far more than a moment's wait, the first item waits that
 * long for company, but only while company comes: after a write of one item the next goes at
 * once, so a trickle pays no wait and a stream gathers into fewer writes.
 */
export class BatchedWrites<T> {
  private queue: Waiting<T>[] = [];
  private flushing?: Promise<void>;
  private companyCame = false;

  constructor(
    private readonly write: (items: T[]) => Promise<unknown>,
    private readonly maxBatch: number,
    private readonly lingerMs = 0,
  ) {}

  /** Resolves once the batch holding `item` is written; rejects with that write's error. */
  add(item: T): Promise<void> {
    return new Promise((written, failed) => {
      this.queue.push({ item, written, failed });
      this.flushing ??= this.flush();
    });
  }

  /** Resolves once every item added so far is written or has failed. */
  async drained(): Promise<void> {
    await this.flushing;
  }

  private async flush(): Promise<void> {
    if (this.lingerMs > 0 && this.companyCame) await new Promise((resolve) => setTimeout(resolve, this.lingerMs));
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.companyCame = batch.length > 1;
      try {
        await this.write(batch.map((waiting) => waiting.item));
        for (const waiting of batch) waiting.written();
      } catch (error) {
        for (const waiting of batch) waiting.failed(error);
      }
    }
    this.flushing = undefined;
  }
}
