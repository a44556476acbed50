import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card payment attempts, for the card-testing defence's sliding windows: by card fingerprint
 * (never the number), by payer address and by business (declines). Rows older than the longest
 * window are swept; the unique key lets a retried attempt be recognised and not counted twice.
 */
export class CardAttempts1763769600045 implements MigrationInterface {
  name = 'CardAttempts1763769600045';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE "gateway"."card_attempts" (
        "id" bigserial PRIMARY KEY,
        "business_id" text NOT NULL,
        "checkout_reference" text NOT NULL,
        "fingerprint" text NOT NULL,
        "payer_address" text,
        "attempted_at" timestamptz NOT NULL DEFAULT now(),
        "refused_by" text,
        "declined" boolean NOT NULL DEFAULT false,
        CONSTRAINT "card_attempts_attempt_key" UNIQUE ("business_id", "checkout_reference", "fingerprint")
      )`,
      `CREATE INDEX "card_attempts_fingerprint_idx" ON "gateway"."card_attempts" ("fingerprint", "attempted_at")`,
      `CREATE INDEX "card_attempts_payer_address_idx" ON "gateway"."card_attempts" ("payer_address", "attempted_at")
        WHERE "payer_address" IS NOT NULL`,
      `CREATE INDEX "card_attempts_declines_idx" ON "gateway"."card_attempts" ("business_id", "attempted_at")
        WHERE "declined"`,
      `CREATE INDEX "card_attempts_attempted_at_idx" ON "gateway"."card_attempts" ("attempted_at")`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "gateway"."card_attempts"`);
  }
}
