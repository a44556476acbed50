import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries for an endpoint without a URL, or disabled (410 Gone), are kept as `held` rather
 * than dropped, and released when the business sets a URL. A held delivery may have no URL yet.
 */
export class HeldDeliveries1763769600024 implements MigrationInterface {
  name = 'HeldDeliveries1763769600024';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "webhooks"."deliveries" DROP CONSTRAINT "deliveries_status_check"`,
      `ALTER TABLE "webhooks"."deliveries" ADD CONSTRAINT "deliveries_status_check" CHECK ("status" IN ('pending', 'held', 'succeeded', 'failed'))`,
      `ALTER TABLE "webhooks"."deliveries" ALTER COLUMN "url" DROP NOT NULL`,
      `ALTER TABLE "webhooks"."deliveries" ADD CONSTRAINT "deliveries_url_check" CHECK ("status" = 'held' OR "url" IS NOT NULL)`,
      `CREATE INDEX "deliveries_held_idx" ON "webhooks"."deliveries" ("business_id") WHERE "status" = 'held'`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "webhooks"."deliveries_held_idx"`,
      `UPDATE "webhooks"."deliveries" SET "status" = 'failed', "url" = coalesce("url", '') WHERE "status" = 'held'`,
      `ALTER TABLE "webhooks"."deliveries" DROP CONSTRAINT "deliveries_url_check"`,
      `ALTER TABLE "webhooks"."deliveries" ALTER COLUMN "url" SET NOT NULL`,
      `ALTER TABLE "webhooks"."deliveries" DROP CONSTRAINT "deliveries_status_check"`,
      `ALTER TABLE "webhooks"."deliveries" ADD CONSTRAINT "deliveries_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed'))`,
    ];
    for (const statement of statements) await runner.query(statement);
  }
}
