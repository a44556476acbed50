import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secret rolls a partner can retry. `older_signing_secrets` keeps each secret rolled away
 * before the previous one, sealed with its expiry, so a second roll within a grace never ends
 * the first one's: the secret a partner has deployed signs until the time it was told.
 * `secret_rolls` keeps a roll's Idempotency-Key with its answer, sealed as the endpoint's
 * secrets are, so a retry answers the same new secret instead of rolling again.
 */
export class SecretRolls1763769600057 implements MigrationInterface {
  name = 'SecretRolls1763769600057';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "webhooks"."endpoints" ADD COLUMN "older_signing_secrets" jsonb NOT NULL DEFAULT '[]'`,
      `ALTER TABLE "webhooks"."partner_endpoints" ADD COLUMN "older_signing_secrets" jsonb NOT NULL DEFAULT '[]'`,
      `CREATE TABLE "webhooks"."secret_rolls" (
        "business_id" text NOT NULL,
        "idempotency_key" text NOT NULL,
        "endpoint_id" text NOT NULL,
        "grace_period_hours" integer NOT NULL,
        "response_sealed" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "secret_rolls_pkey" PRIMARY KEY ("business_id", "idempotency_key")
      )`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    const statements = [
      `DROP TABLE "webhooks"."secret_rolls"`,
      `ALTER TABLE "webhooks"."partner_endpoints" DROP COLUMN "older_signing_secrets"`,
      `ALTER TABLE "webhooks"."endpoints" DROP COLUMN "older_signing_secrets"`,
    ];
    for (const statement of statements) await runner.query(statement);
  }
}
