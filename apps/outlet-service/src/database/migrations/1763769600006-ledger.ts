import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenants, outlets, wallets and the double-entry ledger. The database itself keeps the money
 * rules: a journal entry that does not sum to zero cannot commit, a wallet balance moves only
 * through its postings, and a protected wallet cannot go below zero available.
 */
export class Ledger1763769600006 implements MigrationInterface {
  name = 'Ledger1763769600006';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      // Permanent virtual account numbers: 10 digits, never reused.
      `CREATE SEQUENCE "outlets"."account_number_seq" AS bigint START 3000000000 MINVALUE 3000000000 MAXVALUE 9999999999`,
      `CREATE TABLE "outlets"."tenants" (
        "business_id" text PRIMARY KEY,
        "name" text NOT NULL,
        "mode" text NOT NULL CONSTRAINT "tenants_mode_check" CHECK ("mode" IN ('test', 'live')),
        "sweep_enabled" boolean NOT NULL DEFAULT false,
        "sweep_threshold" bigint NOT NULL DEFAULT 100 CONSTRAINT "tenants_sweep_threshold_check" CHECK ("sweep_threshold" > 0),
        "sweep_interval_seconds" integer NOT NULL DEFAULT 3600,
        "next_sweep_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE "outlets"."outlets" (
        "id" text PRIMARY KEY,
        "business_id" text NOT NULL REFERENCES "outlets"."tenants" ("business_id"),
        "account_name" varchar(200) NOT NULL,
        "external_reference" text,
        "address" text,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX "outlets_business_external_reference_key" ON "outlets"."outlets" ("business_id", "external_reference")
        WHERE "external_reference" IS NOT NULL`,
      `CREATE INDEX "outlets_business_name_idx" ON "outlets"."outlets" ("business_id", lower("account_name") text_pattern_ops)`,
      `CREATE TABLE "outlets"."wallets" (
        "id" text PRIMARY KEY,
        "business_id" text NOT NULL REFERENCES "outlets"."tenants" ("business_id"),
        "outlet_id" text REFERENCES "outlets"."outlets" ("id"),
        "type" text NOT NULL CONSTRAINT "wallets_type_check" CHECK ("type" IN ('collection', 'deposit', 'settlement', 'rail')),
        "account_number" char(10) CONSTRAINT "wallets_account_number_key" UNIQUE,
        "account_name" varchar(225) NOT NULL,
        "currency" char(3) NOT NULL DEFAULT 'NGN',
        "status" text NOT NULL DEFAULT 'active',
        "ledger_balance" bigint NOT NULL DEFAULT 0,
        "held_balance" bigint NOT NULL DEFAULT 0 CONSTRAINT "wallets_held_balance_check" CHECK ("held_balance" >= 0),
        "allow_negative" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "wallets_no_overdraft" CHECK ("allow_negative" OR "ledger_balance" - "held_balance" >= 0)
      )`,
      `CREATE UNIQUE INDEX "wallets_outlet_type_key" ON "outlets"."wallets" ("outlet_id", "type") WHERE "outlet_id" IS NOT NULL`,
      `CREATE UNIQUE INDEX "wallets_one_settlement_key" ON "outlets"."wallets" ("business_id") WHERE "type" = 'settlement'`,
      `CREATE UNIQUE INDEX "wallets_one_rail_key" ON "outlets"."wallets" ("business_id") WHERE "type" = 'rail'`,
      `CREATE INDEX "wallets_business_type_idx" ON "outlets"."wallets" ("business_id", "type")`,
      // One row per money command reference: the idempotency record and its first answer.
      `CREATE TABLE "outlets"."money_commands" (
        "business_id" text NOT NULL,
        "reference" text NOT NULL,
        "kind" text NOT NULL,
        "request_hash" text NOT NULL,
        "result" json,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "money_commands_pkey" PRIMARY KEY ("business_id", "reference")
      )`,
      `CREATE TABLE "outlets"."journal_entries" (
        "id" text PRIMARY KEY,
        "business_id" text NOT NULL,
        "kind" text NOT NULL,
        "reference" text NOT NULL,
        "narration" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "journal_entries_reference_key" UNIQUE ("business_id", "kind", "reference")
      )`,
      `CREATE TABLE "outlets"."postings" (
        "id" bigserial PRIMARY KEY,
        "entry_id" text NOT NULL REFERENCES "outlets"."journal_entries" ("id"),
        "wallet_id" text NOT NULL REFERENCES "outlets"."wallets" ("id"),
        "amount" bigint NOT NULL CONSTRAINT "postings_amount_check" CHECK ("amount" <> 0),
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX "postings_wallet_idx" ON "outlets"."postings" ("wallet_id")`,
      `CREATE INDEX "postings_entry_idx" ON "outlets"."postings" ("entry_id")`,
      // A balance moves only with a posting, in the same statement.
      `CREATE FUNCTION "outlets"."apply_posting"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE "outlets"."wallets" SET "ledger_balance" = "ledger_balance" + NEW."amount" WHERE "id" = NEW."wallet_id";
          RETURN NEW;
        END $$`,
      `CREATE TRIGGER "postings_apply" AFTER INSERT ON "outlets"."postings" FOR EACH ROW EXECUTE FUNCTION "outlets"."apply_posting"()`,
      // Checked at commit: every entry's postings sum to zero.
      `CREATE FUNCTION "outlets"."check_entry_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF (SELECT sum("amount") FROM "outlets"."postings" WHERE "entry_id" = NEW."entry_id") <> 0 THEN
            RAISE EXCEPTION 'journal entry % does not balance', NEW."entry_id" USING ERRCODE = '23514';
          END IF;
          RETURN NULL;
        END $$`,
      `CREATE CONSTRAINT TRIGGER "postings_balanced" AFTER INSERT ON "outlets"."postings"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "outlets"."check_entry_balanced"()`,
      `CREATE FUNCTION "outlets"."forbid_change"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'postings and journal entries are append-only';
        END $$`,
      `CREATE TRIGGER "postings_append_only" BEFORE UPDATE OR DELETE ON "outlets"."postings" FOR EACH ROW EXECUTE FUNCTION "outlets"."forbid_change"()`,
      `CREATE TRIGGER "journal_entries_append_only" BEFORE UPDATE OR DELETE ON "outlets"."journal_entries" FOR EACH ROW EXECUTE FUNCTION "outlets"."forbid_change"()`,
      // A payout holds its amount while PROCESSING; held_balance is the sum of those holds.
      `CREATE TABLE "outlets"."payouts" (
        "id" text PRIMARY KEY,
        "business_id" text NOT NULL,
        "reference" text NOT NULL,
        "wallet_id" text NOT NULL REFERENCES "outlets"."wallets" ("id"),
        "amount" bigint NOT NULL CONSTRAINT "payouts_amount_check" CHECK ("amount" > 0),
        "bank_code" text NOT NULL,
        "account_number" text NOT NULL,
        "account_name" text NOT NULL,
        "narration" text,
        "status" text NOT NULL CONSTRAINT "payouts_status_check" CHECK ("status" IN ('PROCESSING', 'SUCCESS', 'FAILED')),
        "settle_after" timestamptz NOT NULL,
        "settled_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "payouts_reference_key" UNIQUE ("business_id", "reference")
      )`,
      `CREATE INDEX "payouts_processing_idx" ON "outlets"."payouts" ("settle_after") WHERE "status" = 'PROCESSING'`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['payouts', 'postings', 'journal_entries', 'money_commands', 'wallets', 'outlets', 'tenants']) {
      await runner.query(`DROP TABLE "outlets"."${table}"`);
    }
    for (const fn of ['apply_posting', 'check_entry_balanced', 'forbid_change']) {
      await runner.query(`DROP FUNCTION "outlets"."${fn}"`);
    }
    await runner.query(`DROP SEQUENCE "outlets"."account_number_seq"`);
  }
}
