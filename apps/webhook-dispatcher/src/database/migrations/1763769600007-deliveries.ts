import { MigrationInterface, QueryRunner } from 'typeorm';

export class Deliveries1763769600007 implements MigrationInterface {
  name = 'Deliveries1763769600007';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE "webhooks"."endpoints" (
        "business_id" text PRIMARY KEY,
        "mode" text NOT NULL CONSTRAINT "endpoints_mode_check" CHECK ("mode" IN ('test', 'live')),
        "url" text,
        "api_key_sealed" text NOT NULL,
        "signing_secret_sealed" text NOT NULL,
        "status" text NOT NULL DEFAULT 'active' CONSTRAINT "endpoints_status_check" CHECK ("status" IN ('active', 'disabled')),
        "disabled_reason" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`,
      // One row per event and destination; the schedule lives here, so restarts lose nothing.
      `CREATE TABLE "webhooks"."deliveries" (
        "id" text PRIMARY KEY,
        "business_id" text NOT NULL,
        "event_id" uuid NOT NULL,
        "event" text NOT NULL,
        "event_data" json NOT NULL,
        "target" text NOT NULL CONSTRAINT "deliveries_target_check" CHECK ("target" IN ('business', 'callback', 'test', 'replay')),
        "url" text NOT NULL,
        "status" text NOT NULL DEFAULT 'pending' CONSTRAINT "deliveries_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed')),
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" timestamptz NOT NULL DEFAULT now(),
        "lease_until" timestamptz,
        "last_status_code" integer,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX "deliveries_event_target_key" ON "webhooks"."deliveries" ("event_id", "target") WHERE "target" IN ('business', 'callback')`,
      `CREATE INDEX "deliveries_due_idx" ON "webhooks"."deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
      `CREATE INDEX "deliveries_in_flight_idx" ON "webhooks"."deliveries" ("url") WHERE "status" = 'pending' AND "lease_until" IS NOT NULL`,
      `CREATE INDEX "deliveries_business_idx" ON "webhooks"."deliveries" ("business_id", "created_at" DESC)`,
      `CREATE TABLE "webhooks"."attempts" (
        "id" bigserial PRIMARY KEY,
        "delivery_id" text NOT NULL REFERENCES "webhooks"."deliveries" ("id"),
        "attempt" integer NOT NULL,
        "started_at" timestamptz NOT NULL,
        "latency_ms" integer NOT NULL,
        "status_code" integer,
        "error" text,
        "response_body" text
      )`,
      `CREATE INDEX "attempts_delivery_idx" ON "webhooks"."attempts" ("delivery_id")`,
      // Events that arrived before their business's endpoint record (onboarding is on another topic).
      `CREATE TABLE "webhooks"."early_events" (
        "event_id" uuid PRIMARY KEY,
        "business_id" text NOT NULL,
        "event" text NOT NULL,
        "event_data" json NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX "early_events_business_idx" ON "webhooks"."early_events" ("business_id")`,
      // Circuit breaker state per destination URL.
      `CREATE TABLE "webhooks"."circuits" (
        "url" text PRIMARY KEY,
        "consecutive_failures" integer NOT NULL DEFAULT 0,
        "open_until" timestamptz
      )`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['circuits', 'early_events', 'attempts', 'deliveries', 'endpoints']) {
      await runner.query(`DROP TABLE "webhooks"."${table}"`);
    }
  }
}
