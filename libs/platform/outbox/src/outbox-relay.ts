import { Logger } from '@nestjs/common';
import { WakeUp } from '@payments/platform-async';
import { singleRow } from '@payments/platform-database';
import { StickyKeylessPartitioner } from '@payments/platform-kafka';
import { traceLinked } from '@payments/platform-tracing';
import { Kafka, Producer } from 'kafkajs';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

import { OutboxMessage, ProcessedEvent } from './outbox-message.entity';
import { onOutboxCommit } from './outbox-wakeups';

export interface OutboxRelayOptions {
  batchSize: number;
  /** Fallback wake-up; commits wake the relay at once through LISTEN/NOTIFY. */
  pollIntervalMs: number;
  /** Under load (the last batch had rows), how long a wake-up waits for more commits to join its batch. */
  lingerMs?: number;
}

interface PendingRow {
  id: string;
  topic: string;
  message_key: string | null;
  /** As text: published byte for byte, never parsed here. */
  payload: string;
  headers: Record<string, string>;
}

/**
 * Publishes committed outbox rows to Kafka, oldest first, and marks them sent.
 *
 * A commit in this process that wrote outbox rows wakes the relay at once (onOutboxCommit):
 * no polling of the table and no NOTIFY round trip on the hot path. A slow poll
 * (`pollIntervalMs`) remains for rows whose own process died before publishing them.
 *
 * One statement claims and marks a batch (FOR UPDATE SKIP LOCKED) inside a transaction that
 * commits only once Kafka has acknowledged it, so replicas never publish the same row at once,
 * and a relay that dies mid-batch leaves its rows unmarked for the next one. Delivery is
 * therefore at least once: consumers deduplicate on the event id.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private producer?: Producer;
  private stopListening?: () => void;
  private running = false;
  private readonly wakeUp = new WakeUp();
  /** Rung by a commit of rows a caller waits on: it cuts a lingering wake-up short. */
  private readonly awaitedRows = new WakeUp();
  private loop?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly kafka: Kafka,
    private readonly options: OutboxRelayOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopListening = onOutboxCommit(this.dataSource, (awaited) => {
      this.wakeUp.ring();
      if (awaited) this.awaitedRows.ring();
    });
    this.loop = this.run();
  }

  /** Finishes the batch in flight, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopListening?.();
    this.wakeUp.ring();
    this.awaitedRows.ring();
    await this.loop;
    await this.producer?.disconnect().catch(() => undefined);
  }

  /** How long the oldest event not yet published has waited, in seconds (0 when none waits). */
  async oldestUnpublishedSeconds(): Promise<number> {
    const table = this.dataSource.getMetadata(OutboxMessage).tablePath;
    const row = await singleRow<{ age: number }>(
      this.dataSource,
      `SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age FROM ${table} WHERE published_at IS NULL`,
    );
    return row.age;
  }

  /** Publishes up to one batch; returns how many rows it published. */
  async publishBatch(): Promise<number> {
    const producer = await this.connectedProducer();
    const table = this.dataSource.getMetadata(OutboxMessage).tablePath;
    const client = await ((this.dataSource.driver as PostgresDriver).master as Pool).connect();
    let broken = false;
    // A connection lost while checked out reports it here rather than crashing the process; the query in progress fails too.
    const lost = () => (broken = true);
    client.on('error', lost);
    try {
      const { rows } = await claimBatch(client, table, this.options.batchSize);
      if (rows.length > 0) {
        rows.sort((a, b) => (BigInt(a.sequence) < BigInt(b.sequence) ? -1 : 1));
        await traceLinked(
          'send outbox',
          rows.map((row) => row.headers),
          () => producer.sendBatch({ acks: -1, topicMessages: toTopicMessages(rows) }),
        );
      }
      await client.query('COMMIT');
      return rows.length;
    } catch (error) {
      if (!broken) {
        broken = await client.query('ROLLBACK').then(
          () => false,
          () => true,
        );
      }
      throw error;
    } finally {
      client.off('error', lost);
      // A connection that was lost, or could not even roll back, is closed rather than pooled.
      client.release(broken);
    }
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
      [
        `DELETE FROM ${outbox} WHERE id IN (SELECT id FROM ${outbox} WHERE published_at < now() - make_interval(hours => $1) LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        retention.sentHours,
      ],
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
        await this.wakeUp.sleep(this.options.pollIntervalMs);
        // Idle, an event goes at once; under load, a moment's wait turns many commits into one
        // batch, unless a caller waits on one of the rows (a forwarded request's answer).
        if (published > 0 && this.options.lingerMs) await this.awaitedRows.sleep(this.options.lingerMs);
      } catch (error) {
        failures += 1;
        await this.resetProducer();
        const delay = Math.min(5000, 100 * 2 ** failures);
        this.logger.warn({ err: error, retryInMs: delay }, 'outbox publish failed; rows stay pending');
        await this.wakeUp.sleep(delay);
      }
    }
  }

  private async connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: StickyKeylessPartitioner,
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
}

/**
 * Opens the relay's transaction and claims a batch, marked published in the same statement (the
 * mark commits only after Kafka acknowledged the batch): one round trip, as a simple query of
 * three statements, so the batch size is written into it (an integer from the settings).
 */
async function claimBatch(client: PoolClient, table: string, batchSize: number) {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size ${batchSize}`);
  // An ordered index scan marks the entries of rows published earlier as dead as it passes
  // them, so the next scan skips them; a bitmap scan would visit every one until vacuum runs.
  const results = (await client.query(
    `BEGIN; SET LOCAL enable_bitmapscan = off;
     UPDATE ${table} SET published_at = now() WHERE id IN (
       SELECT id FROM ${table} WHERE published_at IS NULL ORDER BY sequence LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
     RETURNING sequence, id, topic, message_key, payload::text AS payload, headers`,
  )) as unknown as QueryResult<PendingRow & { sequence: string }>[];
  return results[results.length - 1];
}

function toTopicMessages(rows: PendingRow[]) {
  const byTopic = new Map<string, { key: string | null; value: string; headers: Record<string, string> }[]>();
  for (const row of rows) {
    const messages = byTopic.get(row.topic) ?? [];
    messages.push({ key: row.message_key, value: row.payload, headers: row.headers });
    byTopic.set(row.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
