import { newUlid } from '@payments/platform-crypto';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One authority for how a checkout ends: the first payment booked or the first closing wins,
 * in the ledger's own transaction. Money a card captured after that waits in a per-business
 * suspense wallet with a refund record. Money command references get namespaces, so a
 * partner's transfer reference can never collide with a reference the ledger makes itself.
 */
export class CheckoutOutcomes1763769600023 implements MigrationInterface {
  name = 'CheckoutOutcomes1763769600023';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "outlets"."money_commands" ADD COLUMN "namespace" text`,
      // Until now the ledger's own references carried a prefix ("checkout:", "session:", "pos:").
      `UPDATE "outlets"."money_commands" SET "namespace" = split_part("reference", ':', 1), "reference" = substr("reference", strpos("reference", ':') + 1)
        WHERE "kind" IN ('checkout', 'funding', 'pos')`,
      `UPDATE "outlets"."money_commands" SET "namespace" = 'transfer' WHERE "namespace" IS NULL`,
      `ALTER TABLE "outlets"."money_commands" ALTER COLUMN "namespace" SET NOT NULL`,
      `ALTER TABLE "outlets"."money_commands" DROP CONSTRAINT "money_commands_pkey"`,
      `ALTER TABLE "outlets"."money_commands" ADD CONSTRAINT "money_commands_pkey" PRIMARY KEY ("business_id", "namespace", "reference")`,
      `CREATE TABLE "outlets"."checkout_outcomes" (
        "checkout_reference" text PRIMARY KEY,
        "business_id" text NOT NULL,
        "status" text NOT NULL CONSTRAINT "checkout_outcomes_status_check" CHECK ("status" IN ('SUCCESS', 'FAILED')),
        "method" text CONSTRAINT "checkout_outcomes_method_check" CHECK ("method" IN ('card', 'pay-with-transfer', 'qr-wallet')),
        "payment_id" text,
        "masked_card" text,
        "comment" text NOT NULL,
        "decided_at" timestamptz NOT NULL DEFAULT now()
      )`,
      // Checkouts paid before this table existed keep their outcome.
      `INSERT INTO "outlets"."checkout_outcomes" ("checkout_reference", "business_id", "status", "method", "comment", "decided_at")
        SELECT c."reference", c."business_id", 'SUCCESS', CASE WHEN a."paid_at" IS NOT NULL THEN 'pay-with-transfer' END, 'Paid', c."created_at"
        FROM "outlets"."money_commands" c LEFT JOIN "outlets"."checkout_accounts" a ON a."checkout_reference" = c."reference"
        WHERE c."namespace" = 'checkout'`,
      `ALTER TABLE "outlets"."wallets" DROP CONSTRAINT "wallets_type_check"`,
      `ALTER TABLE "outlets"."wallets" ADD CONSTRAINT "wallets_type_check" CHECK ("type" IN ('collection', 'deposit', 'settlement', 'rail', 'suspense'))`,
      `CREATE UNIQUE INDEX "wallets_one_suspense_key" ON "outlets"."wallets" ("business_id") WHERE "type" = 'suspense'`,
      `CREATE TABLE "outlets"."refunds" (
        "id" text PRIMARY KEY,
        "business_id" text NOT NULL,
        "reference" text NOT NULL,
        "transaction_reference" text NOT NULL,
        "checkout_reference" text,
        "amount" bigint NOT NULL CONSTRAINT "refunds_amount_check" CHECK ("amount" > 0),
        "reason" text NOT NULL,
        "wallet_id" text NOT NULL REFERENCES "outlets"."wallets" ("id"),
        "status" text NOT NULL CONSTRAINT "refunds_status_check" CHECK ("status" IN ('PENDING', 'PROCESSED', 'FAILED')),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "refunds_reference_key" UNIQUE ("business_id", "reference")
      )`,
      `CREATE INDEX "refunds_pending_idx" ON "outlets"."refunds" ("created_at") WHERE "status" = 'PENDING'`,
    ];
    for (const statement of statements) await runner.query(statement);
    // Every business has a suspense wallet from now on; those provisioned before get theirs here.
    const tenants = (await runner.query(`SELECT "business_id", "name" FROM "outlets"."tenants"`)) as {
      business_id: string;
      name: string;
    }[];
    for (const tenant of tenants) {
      await runner.query(
        `INSERT INTO "outlets"."wallets" ("id", "business_id", "type", "account_name") VALUES ($1, $2, 'suspense', $3)`,
        [newUlid(), tenant.business_id, `${tenant.name} (suspense)`],
      );
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    const statements = [
      `DROP TABLE "outlets"."refunds"`,
      `DROP INDEX "outlets"."wallets_one_suspense_key"`,
      `ALTER TABLE "outlets"."wallets" DROP CONSTRAINT "wallets_type_check"`,
      `ALTER TABLE "outlets"."wallets" ADD CONSTRAINT "wallets_type_check" CHECK ("type" IN ('collection', 'deposit', 'settlement', 'rail'))`,
      `DROP TABLE "outlets"."checkout_outcomes"`,
      `DELETE FROM "outlets"."wallets" WHERE "type" = 'suspense'`,
      `ALTER TABLE "outlets"."money_commands" DROP CONSTRAINT "money_commands_pkey"`,
      `DELETE FROM "outlets"."money_commands" WHERE "namespace" NOT IN ('transfer', 'checkout', 'session', 'pos')`,
      `UPDATE "outlets"."money_commands" SET "reference" = "namespace" || ':' || "reference" WHERE "namespace" <> 'transfer'`,
      `ALTER TABLE "outlets"."money_commands" ADD CONSTRAINT "money_commands_pkey" PRIMARY KEY ("business_id", "reference")`,
      `ALTER TABLE "outlets"."money_commands" DROP COLUMN "namespace"`,
    ];
    for (const statement of statements) await runner.query(statement);
  }
}
