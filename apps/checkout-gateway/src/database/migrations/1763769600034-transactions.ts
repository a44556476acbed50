import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transaction history partners list and export: one row per transaction of a business,
 * kept from the money events on partner.events.v1 (the latest event of a reference wins, and
 * a final status never goes back to PROCESSING). `id` is arrival order: pages are cut on it,
 * so new arrivals never shift a page already read.
 */
export class Transactions1763769600034 implements MigrationInterface {
  name = 'Transactions1763769600034';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "gateway"."transactions" (
      "id" bigserial PRIMARY KEY,
      "business_id" text NOT NULL,
      "reference" text NOT NULL,
      "product_type" text NOT NULL,
      "transaction_type" text NOT NULL CONSTRAINT "transactions_type_check" CHECK ("transaction_type" IN ('CREDIT', 'DEBIT')),
      "status" text NOT NULL CONSTRAINT "transactions_status_check" CHECK ("status" IN ('SUCCESS', 'FAILED', 'PROCESSING')),
      "amount" bigint NOT NULL,
      "fee" bigint NOT NULL,
      "commission" bigint NOT NULL,
      "net_amount" bigint NOT NULL,
      "account" text NOT NULL,
      "outlet_id" text,
      "session_id" text,
      "customer_reference" text,
      "comment" text,
      "event" text NOT NULL,
      "event_id" text NOT NULL,
      "created_at" timestamptz NOT NULL,
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "transactions_reference_key" UNIQUE ("business_id", "reference")
    )`);
    await runner.query(
      `CREATE INDEX "transactions_business_idx" ON "gateway"."transactions" ("business_id", "id" DESC)`,
    );
    await runner.query(
      `CREATE INDEX "transactions_business_created_idx" ON "gateway"."transactions" ("business_id", "created_at", "id")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "gateway"."transactions"`);
  }
}
