import { MigrationInterface, QueryRunner } from 'typeorm';

export class Checkouts1763769600010 implements MigrationInterface {
  name = 'Checkouts1763769600010';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE "gateway"."checkouts" (
        "reference" text PRIMARY KEY,
        "business_id" text NOT NULL REFERENCES "gateway"."businesses" ("id"),
        "amount" bigint NOT NULL CONSTRAINT "checkouts_amount_check" CHECK ("amount" > 0),
        "account_name" varchar(200) NOT NULL,
        "payment_methods" text[] NOT NULL,
        "used_method" text,
        "status" text NOT NULL DEFAULT 'PROCESSING' CONSTRAINT "checkouts_status_check" CHECK ("status" IN ('PROCESSING', 'SUCCESS', 'FAILED')),
        "email" text,
        "callback_url" text,
        "metadata" json,
        "masked_card" text,
        "expires_at" timestamptz NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX "checkouts_business_idx" ON "gateway"."checkouts" ("business_id", "created_at" DESC)`,
      `CREATE INDEX "checkouts_expiring_idx" ON "gateway"."checkouts" ("expires_at") WHERE "status" = 'PROCESSING'`,
      // A retried create with the same Idempotency-Key gets the first answer back.
      `CREATE TABLE "gateway"."idempotency_keys" (
        "business_id" text NOT NULL,
        "key" text NOT NULL,
        "request_hash" text NOT NULL,
        "response" json,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("business_id", "key")
      )`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "gateway"."idempotency_keys"`);
    await runner.query(`DROP TABLE "gateway"."checkouts"`);
  }
}
