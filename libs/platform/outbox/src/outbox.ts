import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { EventEnvelope, TopicSpec } from '@payments/contracts';
import { startProducerSpan } from '@payments/platform-tracing';
import { EntityManager } from 'typeorm';

import { OutboxMessage, ProcessedEvent } from './outbox-message.entity';
import { markOutboxWritten } from './outbox-wakeups';

export interface NewEvent<T> {
  topic: TopicSpec;
  type: string;
  /** Kafka message key: events with one key stay in order (usually the business id). */
  key: string;
  payload: T;
  businessId?: string;
  correlationId?: string;
  /** Further Kafka headers: a forwarded request's reply address, say. */
  headers?: Record<string, string>;
  /** A caller waits on what this event brings about: the relay publishes it without lingering. */
  awaited?: boolean;
}

/** An outbox row ready to insert, for a write that inserts it itself (a database function); call outboxCommitted after. */
export interface OutboxRow<T = unknown> {
  id: string;
  topic: string;
  key: string;
  payload: EventEnvelope<T>;
  headers: Record<string, string>;
}

@Injectable()
export class Outbox {
  /** Adds an event to the transaction `em` belongs to; it is published only if that commits. */
  async enqueue<T>(em: EntityManager, event: NewEvent<T>): Promise<EventEnvelope<T>> {
    if (!em.queryRunner?.isTransactionActive) throw new Error('Outbox.enqueue must run inside a transaction');
    const row = this.row(event);
    await em.insert(OutboxMessage, {
      id: row.id,
      topic: row.topic,
      messageKey: row.key,
      payload: row.payload,
      headers: row.headers,
    });
    // The commit wakes this process's relay; see onOutboxCommit.
    markOutboxWritten(em.queryRunner, event.awaited);
    return row.payload;
  }

  /** The row `enqueue` would insert. */
  row<T>(event: NewEvent<T>): OutboxRow<T> {
    const envelope: EventEnvelope<T> = {
      eventId: randomUUID(),
      type: event.type,
      occurredAt: new Date().toISOString(),
      ...(event.correlationId ? { correlationId: event.correlationId } : {}),
      ...(event.businessId ? { businessId: event.businessId } : {}),
      payload: event.payload,
    };
    const headers: Record<string, string> = {
      ...event.headers,
      'event-id': envelope.eventId,
      'event-type': event.type,
    };
    if (event.correlationId) headers['correlation-id'] = event.correlationId;
    // The relay publishes later, outside this trace: the context travels with the row.
    startProducerSpan('create', event.topic.name, headers)();
    return { id: envelope.eventId, topic: event.topic.name, key: event.key, payload: envelope, headers };
  }
}

@Injectable()
export class ProcessedEvents {
  /**
   * Records that `consumer` applied `eventId`, in the caller's transaction. False means it
   * was applied before: the caller skips the work, and the redelivery changes nothing.
   */
  async firstDelivery(em: EntityManager, consumer: string, eventId: string): Promise<boolean> {
    const table = em.connection.getMetadata(ProcessedEvent).tablePath;
    const rows: unknown[] = await em.query(
      `INSERT INTO ${table} (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
      [consumer, eventId],
    );
    return rows.length === 1;
  }
}
