import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryColumn } from 'typeorm';

/** An event waiting to be published, written in the same transaction as the change it reports. */
@Entity({ name: 'outbox' })
export class OutboxMessage {
  /** The event id: consumers deduplicate on it. */
  @PrimaryColumn('uuid')
  id!: string;

  /** Publication order within the app. */
  @Column({ type: 'bigint' })
  @Generated('increment')
  sequence!: string;

  @Column('text')
  topic!: string;

  @Column('text', { name: 'message_key', nullable: true })
  messageKey!: string | null;

  /** `json`, not `jsonb`: the event is published byte for byte as it was written. */
  @Column('json')
  payload!: unknown;

  @Column('json', { default: () => `'{}'` })
  headers!: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Index('outbox_unpublished_idx', { where: 'published_at IS NULL' })
  @Column('timestamptz', { name: 'published_at', nullable: true })
  publishedAt!: Date | null;
}

/** Event ids a consumer has applied; the primary key is what makes a redelivery a no-op. */
@Entity({ name: 'processed_events' })
export class ProcessedEvent {
  @PrimaryColumn('text')
  consumer!: string;

  @PrimaryColumn('uuid', { name: 'event_id' })
  eventId!: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt!: Date;
}

export const outboxEntities = [OutboxMessage, ProcessedEvent];
