import { Message, Producer } from 'kafkajs';

interface Pending {
  message: Message;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Sends messages to one topic with acks=all, many at a time: while one batch is in flight the
 * next one gathers, so each caller still waits for the broker's acknowledgement of its own
 * message, but the broker sees a few large requests instead of many small ones.
 */
export class BatchingPublisher {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(
    private readonly producer: () => Promise<Producer>,
    private readonly topic: string,
    private readonly onFailure: () => void = () => undefined,
    private readonly maxBatch = 500,
  ) {}

  publish(message: Message): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ message, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const producer = await this.producer();
        await producer.send({ topic: this.topic, acks: -1, messages: batch.map((pending) => pending.message) });
        for (const pending of batch) pending.resolve();
      } catch (error) {
        this.onFailure();
        for (const pending of batch) pending.reject(error);
      }
    }
    this.flushing = false;
  }
}
