/**
 * DDL of the outbox and processed-events tables, for each app's initial migration.
 * Frozen once released: a change is a new `outboxTablesV2`, used by a new migration.
 */
export function outboxTablesV1(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}"."outbox" (
      "id" uuid PRIMARY KEY,
      "sequence" bigserial NOT NULL,
      "topic" text NOT NULL,
      "message_key" text,
      "payload" json NOT NULL,
      "headers" json NOT NULL DEFAULT '{}',
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "published_at" timestamptz
    )`,
    `CREATE INDEX "outbox_unpublished_idx" ON "${schema}"."outbox" ("sequence") WHERE "published_at" IS NULL`,
    `CREATE TABLE "${schema}"."processed_events" (
      "consumer" text NOT NULL,
      "event_id" uuid NOT NULL,
      "processed_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer", "event_id")
    )`,
  ];
}

export function dropOutboxTablesV1(schema: string): string[] {
  return [`DROP TABLE "${schema}"."processed_events"`, `DROP TABLE "${schema}"."outbox"`];
}
