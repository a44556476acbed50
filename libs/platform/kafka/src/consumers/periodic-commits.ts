import { Logger } from '@nestjs/common';
import type { Consumer, EachBatchPayload } from 'kafkajs';

/** How often a consumer's processed offsets are committed. */
export const commitIntervalMs = 1000;

/**
 * Commits a consumer's processed offsets once a second instead of after every batch.
 *
 * kafkajs with autoCommit on sends an OffsetCommit after every batch it hands over, which at
 * low load is one broker write per message. Every handler is idempotent, so committing later
 * costs at most a second of redelivery after a crash or a rebalance. Each batch remembers where
 * its consumer stands; a timer commits what is resolved and not yet committed, so an idle
 * consumer's last offsets are committed too, and `flush` commits them once more at shutdown.
 */
export class PeriodicCommits {
  private readonly logger = new Logger(PeriodicCommits.name);
  private uncommitted?: EachBatchPayload['uncommittedOffsets'];
  private timer?: NodeJS.Timeout;
  private committing: Promise<void> = Promise.resolve();
  private inFlight = false;

  constructor(private readonly consumer: Consumer) {
    // A rejoined or restarted consumer reads offsets from a group of its own: the last batch's
    // view of the old one would commit stale offsets, perhaps of partitions another member owns.
    const forget = () => (this.uncommitted = undefined);
    consumer.on(consumer.events.GROUP_JOIN, forget);
    consumer.on(consumer.events.CRASH, forget);
  }

  /** Called with every batch: where to read the consumer's resolved offsets from. */
  track(payload: Pick<EachBatchPayload, 'uncommittedOffsets'>): void {
    this.uncommitted = payload.uncommittedOffsets;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), commitIntervalMs);
    this.timer.unref();
  }

  /**
   * Commits what is resolved and not committed yet; a failure (say, during a rebalance) waits for
   * the next tick. A commit still under way (following a moving coordinator) is not queued behind.
   */
  flush(): Promise<void> {
    if (this.inFlight) return this.committing;
    this.inFlight = true;
    this.committing = this.committing
      .then(async () => {
        const offsets = this.uncommitted?.().topics.flatMap(({ topic, partitions }) =>
          partitions.map(({ partition, offset }) => ({ topic, partition, offset })),
        );
        if (!offsets?.length) return;
        await this.consumer.commitOffsets(offsets).catch((error: unknown) => {
          this.logger.debug({ err: error }, 'offsets not committed; the next tick tries again');
        });
      })
      .finally(() => {
        this.inFlight = false;
      });
    return this.committing;
  }

  /** Stops the timer and commits what is left, waiting no longer than `limitMs`: a shutdown leaves the group in time. */
  async stop(limitMs = 5000): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
    await Promise.race([this.flush().then(() => this.flush()), late]);
    clearTimeout(timer);
  }
}
