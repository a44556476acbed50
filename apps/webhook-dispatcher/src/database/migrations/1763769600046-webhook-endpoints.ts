import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoints of a business's own choosing beside its default one (`webhooks.endpoints`, set by
 * PUT /webhooks/endpoint), each with its URL, event filter and Standard Webhooks secret; every
 * endpoint's secret can be rolled, the previous one signing too until its grace ends. A
 * delivery names its endpoint (null: the default one, or a checkout's callback), so one event
 * is delivered once to each endpoint whose filter takes it.
 */
export class WebhookEndpoints1763769600046 implements MigrationInterface {
  name = 'WebhookEndpoints1763769600046';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "webhooks"."endpoints" ADD COLUMN "previous_signing_secret_sealed" text,
         ADD COLUMN "previous_secret_expires_at" timestamptz`,
      `CREATE TABLE "webhooks"."partner_endpoints" (
        "id" text PRIMARY KEY,
        "business_id" text NOT NULL REFERENCES "webhooks"."endpoints" ("business_id"),
        "url" text NOT NULL,
        "events" text[] NOT NULL,
        "description" text,
        "enabled" boolean NOT NULL DEFAULT true,
        "status" text NOT NULL DEFAULT 'active' CONSTRAINT "partner_endpoints_status_check" CHECK ("status" IN ('active', 'disabled')),
        "disabled_reason" text,
        "signing_secret_sealed" text NOT NULL,
        "previous_signing_secret_sealed" text,
        "previous_secret_expires_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX "partner_endpoints_business_idx" ON "webhooks"."partner_endpoints" ("business_id", "created_at")`,
      `ALTER TABLE "webhooks"."deliveries" ADD COLUMN "endpoint_id" text`,
      `DROP INDEX "webhooks"."deliveries_event_target_key"`,
      `CREATE UNIQUE INDEX "deliveries_event_target_key" ON "webhooks"."deliveries" ("event_id", "target", coalesce("endpoint_id", ''))
         WHERE "target" IN ('business', 'callback')`,
      `CREATE INDEX "deliveries_endpoint_held_idx" ON "webhooks"."deliveries" ("endpoint_id") WHERE "status" IN ('held', 'pending') AND "endpoint_id" IS NOT NULL`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "webhooks"."deliveries_endpoint_held_idx"`,
      `DELETE FROM "webhooks"."attempts" WHERE "delivery_id" IN (SELECT "id" FROM "webhooks"."deliveries" WHERE "endpoint_id" IS NOT NULL)`,
      `DELETE FROM "webhooks"."deliveries" WHERE "endpoint_id" IS NOT NULL`,
      `DROP INDEX "webhooks"."deliveries_event_target_key"`,
      `CREATE UNIQUE INDEX "deliveries_event_target_key" ON "webhooks"."deliveries" ("event_id", "target") WHERE "target" IN ('business', 'callback')`,
      `ALTER TABLE "webhooks"."deliveries" DROP COLUMN "endpoint_id"`,
      `DROP TABLE "webhooks"."partner_endpoints"`,
      `ALTER TABLE "webhooks"."endpoints" DROP COLUMN "previous_signing_secret_sealed", DROP COLUMN "previous_secret_expires_at"`,
    ];
    for (const statement of statements) await runner.query(statement);
  }
}
