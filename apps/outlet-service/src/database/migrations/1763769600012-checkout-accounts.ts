import { MigrationInterface, QueryRunner } from 'typeorm';

export class CheckoutAccounts1763769600012 implements MigrationInterface {
  name = 'CheckoutAccounts1763769600012';

  async up(runner: QueryRunner): Promise<void> {
    // Dynamic accounts for checkouts paid by bank transfer: numbers from the same sequence as
    // wallet accounts, so a number is never reused.
    await runner.query(`CREATE TABLE "outlets"."checkout_accounts" (
      "account_number" char(10) PRIMARY KEY,
      "business_id" text NOT NULL REFERENCES "outlets"."tenants" ("business_id"),
      "checkout_reference" text NOT NULL CONSTRAINT "checkout_accounts_checkout_key" UNIQUE,
      "amount" bigint NOT NULL,
      "expires_at" timestamptz NOT NULL,
      "paid_at" timestamptz,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "outlets"."checkout_accounts"`);
  }
}
