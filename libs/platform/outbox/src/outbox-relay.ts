import { Logger } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { outboxChannel } from './outbox';
import { OutboxMessage, ProcessedEvent } from './outbox-message.entity';

export interface OutboxRelayOptions {
  batchSize: number;
  /** Fallback wake-up; commits wake the relay at once through LISTEN/NOTIFY. */
  pollIntervalMs: number;
}

/**
 * Publishes committed outbox rows to Kafka, oldest first, and marks them sent.
 *
 * Rows are claimed with FOR UPDATE SKIP LOCKED inside a transaction that lasts until Kafka
 * has acknowledged them, so replicas never publish the same row concurrently, and a relay
 * that dies mid-batch leaves its rows unmarked for the next one. Delivery is therefore at
 * least once: consumers deduplicate on the event id.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private producer?: Producer;
  private listener?: Client;
  private running = false;
  private signalled = false;
  private wake?: () => void;
  private loop?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly kafka: Kafka,
    private readonly options: OutboxRelayOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.listen();
    this.loop = this.run();
  }

  /** Finishes the batch in flight, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.listener?.end().catch(() => undefined);
    await this.producer?.disconnect().catch(() => undefined);
  }

  /** Publishes up to one batch; returns how many rows it published. */
  async publishBatch(): Promise<number> {
    const producer = await this.connectedProducer();
    return this.dataSource.transaction(async (em) => {
      const rows = await em
        .getRepository(OutboxMessage)
        .createQueryBuilder('message')
        .where('message.publishedAt IS NULL')
        .orderBy('message.sequence')
        .limit(this.options.batchSize)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (rows.length === 0) return 0;
      await producer.sendBatch({ acks: -1, topicMessages: toTopicMessages(rows) });
      await em.update(OutboxMessage, rows.map((row) => row.id), { publishedAt: () => 'now()' });
      return rows.length;
    });
  }

  /**
   * Deletes what no one needs any more, a batch at a time: sent outbox rows older than
   * `sentHours`, and consumer dedupe records older than `processedHours` (which must outlive
   * the retention of every topic, or a redelivered event would be applied again). Replicas
   * may prune at once: each skips the rows another is deleting. Returns how many rows went.
   */
  async prune(retention: { sentHours: number; processedHours: number }, batchSize = 1000): Promise<number> {
    const outbox = this.dataSource.getMetadata(OutboxMessage).tablePath;
    const processed = this.dataSource.getMetadata(ProcessedEvent).tablePath;
    const statements = [
      [`DELETE FROM ${outbox} WHERE id IN (SELECT id FROM ${outbox} WHERE published_at < now() - make_interval(hours => $1) LIMIT $2 FOR UPDATE SKIP LOCKED)`, retention.sentHours],
      [
        `DELETE FROM ${processed} WHERE (consumer, event_id) IN (SELECT consumer, event_id FROM ${processed}
           WHERE processed_at < now() - make_interval(hours => $1) LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        retention.processedHours,
      ],
    ] as const;
    let removed = 0;
    for (const [statement, hours] of statements) {
      for (;;) {
        const [, deleted] = (await this.dataSource.query(statement, [hours, batchSize])) as [unknown[], number];
        removed += deleted;
        if (deleted < batchSize) break;
      }
    }
    return removed;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        const published = await this.publishBatch();
        failures = 0;
        if (published === this.options.batchSize) continue;
        await this.idle(this.options.pollIntervalMs);
      } catch (error) {
        failures += 1;
        await this.resetProducer();
        const delay = Math.min(5000, 100 * 2 ** failures);
        this.logger.warn({ err: error, retryInMs: delay }, 'outbox publish failed; rows stay pending');
        await this.idle(delay);
      }
    }
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await producer.connect();
      this.producer = producer;
    }
    return this.producer;
  }

  /** A fresh producer after a failure: an idempotent producer's sequence state may be stale. */
  private async resetProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    await producer?.disconnect().catch(() => undefined);
  }

  private idle(ms: number): Promise<void> {
    if (this.signalled || !this.running) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.signalled = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private notified(): void {
    this.signalled = true;
    this.wake?.();
  }

  /** LISTEN on a dedicated connection, reconnecting while the relay runs. */
  private async listen(): Promise<void> {
    const options = this.dataSource.options as { url?: string; schema?: string };
    while (this.running) {
      const client = new Client({ connectionString: options.url, connectionTimeoutMillis: 5000 });
      try {
        const closed = new Promise<void>((resolve) => {
          client.once('end', () => resolve());
          client.once('error', () => resolve());
        });
        client.on('notification', () => this.notified());
        await client.connect();
        this.listener = client;
        await client.query(`LISTEN "${outboxChannel(options.schema ?? 'public')}"`);
        // Rows committed while we were not listening are picked up by this wake-up.
        this.notified();
        await closed;
      } catch (error) {
        this.logger.warn({ err: error }, 'outbox listener connection failed');
      } finally {
        this.listener = undefined;
        await client.end().catch(() => undefined);
      }
      if (this.running) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

function toTopicMessages(rows: OutboxMessage[]) {
  const byTopic = new Map<string, { key: string | null; value: string; headers: Record<string, string> }[]>();
  for (const row of rows) {
    const messages = byTopic.get(row.topic) ?? [];
    messages.push({ key: row.messageKey, value: JSON.stringify(row.payload), headers: row.headers });
    byTopic.set(row.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
