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

  constructor(private readonly consumer: Consumer) {}

  /** Called with every batch: where to read the consumer's resolved offsets from. */
  track(payload: Pick<EachBatchPayload, 'uncommittedOffsets'>): void {
    this.uncommitted = payload.uncommittedOffsets;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), commitIntervalMs);
    this.timer.unref();
  }

  /** Commits what is resolved and not committed yet; a failure (say, during a rebalance) waits for the next tick. */
  flush(): Promise<void> {
    this.committing = this.committing.then(async () => {
      const offsets = this.uncommitted?.().topics.flatMap(({ topic, partitions }) =>
        partitions.map(({ partition, offset }) => ({ topic, partition, offset })),
      );
      if (!offsets?.length) return;
      await this.consumer.commitOffsets(offsets).catch((error: unknown) => {
        this.logger.debug({ err: error }, 'offsets not committed; the next tick tries again');
      });
    });
    return this.committing;
  }

  /** Stops the timer and commits what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
