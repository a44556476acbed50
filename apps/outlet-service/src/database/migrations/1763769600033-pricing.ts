import { newUlid } from '@payments/platform-crypto';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { MoveMoneyDecides1763769600026 } from './1763769600026-move-money-decides';

/**
 * Pricing. Price plans per business and product, append-only (the newest row is in force, so a
 * change applies to new payments only; a business without its own row pays the platform
 * default, business_id NULL). Every business gets a revenue wallet for the fees. A payout keeps
 * the fee it was quoted, held with its amount. move_money posts the fee in the payment's own
 * entry: destination gets amount − fee, revenue fee − commission, the commission wallet the rest.
 */
export class Pricing1763769600033 implements MigrationInterface {
  name = 'Pricing1763769600033';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE "outlets"."price_plans" (
        "id" bigserial PRIMARY KEY,
        "business_id" text REFERENCES "outlets"."tenants" ("business_id"),
        "product" text NOT NULL CONSTRAINT "price_plans_product_check" CHECK ("product" IN ('card', 'transfer', 'qr', 'pos', 'payout')),
        "percent_bps" integer NOT NULL CONSTRAINT "price_plans_percent_check" CHECK ("percent_bps" BETWEEN 0 AND 10000),
        "cap_kobo" bigint CONSTRAINT "price_plans_cap_check" CHECK ("cap_kobo" >= 0),
        "floor_kobo" bigint NOT NULL DEFAULT 0 CONSTRAINT "price_plans_floor_check" CHECK ("floor_kobo" >= 0),
        "flat_kobo" bigint NOT NULL DEFAULT 0 CONSTRAINT "price_plans_flat_check" CHECK ("flat_kobo" >= 0),
        "commission_bps" integer NOT NULL DEFAULT 0 CONSTRAINT "price_plans_commission_check" CHECK ("commission_bps" BETWEEN 0 AND 10000),
        "set_by" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "price_plans_cap_above_floor" CHECK ("cap_kobo" IS NULL OR "cap_kobo" >= "floor_kobo")
      )`,
      `CREATE INDEX "price_plans_current_idx" ON "outlets"."price_plans" ("business_id", "product", "id" DESC)`,
      // The default plan: card 1.5% capped at ₦2,000; transfers in and QR 1% capped at ₦300; POS 0.5% capped at ₦100; payouts ₦10 each.
      `INSERT INTO "outlets"."price_plans" ("business_id", "product", "percent_bps", "cap_kobo", "flat_kobo", "set_by") VALUES
        (NULL, 'card', 150, 200000, 0, 'migration'),
        (NULL, 'transfer', 100, 30000, 0, 'migration'),
        (NULL, 'qr', 100, 30000, 0, 'migration'),
        (NULL, 'pos', 50, 10000, 0, 'migration'),
        (NULL, 'payout', 0, NULL, 1000, 'migration')`,
      `CREATE FUNCTION "outlets"."forbid_plan_change"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'price plans are append-only: insert a new row';
        END $$`,
      `CREATE TRIGGER "price_plans_append_only" BEFORE UPDATE OR DELETE ON "outlets"."price_plans" FOR EACH ROW EXECUTE FUNCTION "outlets"."forbid_plan_change"()`,
      `ALTER TABLE "outlets"."wallets" DROP CONSTRAINT "wallets_type_check"`,
      `ALTER TABLE "outlets"."wallets" ADD CONSTRAINT "wallets_type_check" CHECK ("type" IN ('collection', 'deposit', 'settlement', 'rail', 'suspense', 'revenue'))`,
      `CREATE UNIQUE INDEX "wallets_one_revenue_key" ON "outlets"."wallets" ("business_id") WHERE "type" = 'revenue'`,
      `ALTER TABLE "outlets"."payouts" ADD COLUMN "fee" bigint NOT NULL DEFAULT 0 CONSTRAINT "payouts_fee_check" CHECK ("fee" >= 0)`,
      `ALTER TABLE "outlets"."payouts" ADD COLUMN "commission" bigint NOT NULL DEFAULT 0 CONSTRAINT "payouts_commission_check" CHECK ("commission" BETWEEN 0 AND "fee")`,
      `DROP FUNCTION "outlets"."move_money"(text, text, text, text, text, text, text, bigint, text[], text, text, text, text, timestamptz, json, json, json)`,
      `CREATE FUNCTION "outlets"."move_money"(
        p_business text, p_namespace text, p_reference text, p_kind text, p_request_hash text,
        p_source text, p_destination text, p_amount bigint, p_wallet_types text[],
        p_entry_id text, p_entry_kind text, p_entry_reference text, p_narration text, p_at timestamptz,
        p_result json, p_outbox json, p_outcome json,
        p_fee bigint, p_commission bigint, p_revenue text, p_commission_wallet text
      ) RETURNS json LANGUAGE plpgsql AS $$
      DECLARE
        earlier record;
        wallet "outlets"."wallets"%ROWTYPE;
        source "outlets"."wallets"%ROWTYPE;
        destination "outlets"."wallets"%ROWTYPE;
      BEGIN
        -- The claim first: a concurrent twin waits on this key, then answers as the first did.
        INSERT INTO "outlets"."money_commands" ("business_id", "namespace", "reference", "kind", "request_hash", "result")
          VALUES (p_business, p_namespace, p_reference, p_kind, p_request_hash, p_result) ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
          SELECT "request_hash", "result" INTO earlier FROM "outlets"."money_commands"
            WHERE "business_id" = p_business AND "namespace" = p_namespace AND "reference" = p_reference;
          IF earlier."request_hash" = p_request_hash AND earlier."result" IS NOT NULL THEN RETURN earlier."result"; END IF;
          RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'REFERENCE_CONFLICT', DETAIL = format('Reference %s was already used for a different request', p_reference);
        END IF;
        -- A checkout payment decides its checkout, unless something else did first: then the
        -- caller books it another way (a refund), and nothing here happened.
        IF p_outcome IS NOT NULL THEN
          INSERT INTO "outlets"."checkout_outcomes" ("checkout_reference", "business_id", "status", "method", "payment_id", "masked_card", "comment")
            VALUES (p_outcome->>'checkoutReference', p_business, p_outcome->>'status', p_outcome->>'method', p_outcome->>'paymentId', p_outcome->>'maskedCard', p_outcome->>'comment')
            ON CONFLICT ("checkout_reference") DO NOTHING;
          IF NOT FOUND THEN
            RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'CHECKOUT_DECIDED', DETAIL = format('Checkout %s has already ended', p_outcome->>'checkoutReference');
          END IF;
        END IF;
        -- Every wallet the entry touches, locked in id order, so commands sharing wallets queue instead of deadlocking.
        FOR wallet IN SELECT * FROM "outlets"."wallets" WHERE "business_id" = p_business AND "id" IN (p_source, p_destination, p_revenue, p_commission_wallet) ORDER BY "id" FOR UPDATE LOOP
          IF wallet."id" = p_source THEN source := wallet; END IF;
          IF wallet."id" = p_destination THEN destination := wallet; END IF;
        END LOOP;
        IF source."id" IS NULL OR destination."id" IS NULL OR NOT (source."type" = ANY (p_wallet_types)) OR NOT (destination."type" = ANY (p_wallet_types)) THEN
          IF NOT EXISTS (SELECT 1 FROM "outlets"."tenants" WHERE "business_id" = p_business) THEN
            RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'INVALID_TENANT', DETAIL = 'This business has no agent assignment; contact support to complete onboarding';
          END IF;
          RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'WALLET_NOT_FOUND',
            DETAIL = format('Wallet %s not found', CASE WHEN source."id" IS NULL OR NOT (source."type" = ANY (p_wallet_types)) THEN p_source ELSE p_destination END);
        END IF;
        IF NOT source."allow_negative" AND source."ledger_balance" - source."held_balance" < p_amount THEN
          RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'INSUFFICIENT_FUNDS', DETAIL = format('Wallet %s has insufficient available balance', p_source);
        END IF;
        INSERT INTO "outlets"."journal_entries" ("id", "business_id", "kind", "reference", "narration", "created_at")
          VALUES (p_entry_id, p_business, p_entry_kind, p_entry_reference, p_narration, p_at);
        -- Zero postings are not written: a free payment is the two postings it always was.
        INSERT INTO "outlets"."postings" ("entry_id", "wallet_id", "amount", "created_at")
          SELECT p_entry_id, posting."wallet", posting."amount", p_at
          FROM (VALUES (p_source, -p_amount), (p_destination, p_amount - p_fee),
                       (p_revenue, p_fee - p_commission), (p_commission_wallet, p_commission)) AS posting ("wallet", "amount")
          WHERE posting."amount" <> 0;
        IF p_outbox IS NOT NULL THEN
          INSERT INTO "outlets"."outbox" ("id", "topic", "message_key", "payload", "headers")
            VALUES ((p_outbox->>'id')::uuid, p_outbox->>'topic', p_outbox->>'key', p_outbox->'payload', p_outbox->'headers');
        END IF;
        RETURN p_result;
      END $$`,
    ];
    for (const statement of statements) await runner.query(statement);
    // Every business has a revenue wallet from now on; those provisioned before get theirs here.
    const tenants = (await runner.query(`SELECT "business_id", "name" FROM "outlets"."tenants"`)) as {
      business_id: string;
      name: string;
    }[];
    for (const tenant of tenants) {
      await runner.query(
        `INSERT INTO "outlets"."wallets" ("id", "business_id", "type", "account_name") VALUES ($1, $2, 'revenue', $3)`,
        [newUlid(), tenant.business_id, `${tenant.name} (fees)`],
      );
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    const statements = [
      `DROP FUNCTION "outlets"."move_money"(text, text, text, text, text, text, text, bigint, text[], text, text, text, text, timestamptz, json, json, json, bigint, bigint, text, text)`,
      `ALTER TABLE "outlets"."payouts" DROP COLUMN "commission"`,
      `ALTER TABLE "outlets"."payouts" DROP COLUMN "fee"`,
      `DROP INDEX "outlets"."wallets_one_revenue_key"`,
      `DELETE FROM "outlets"."wallets" WHERE "type" = 'revenue'`,
      `ALTER TABLE "outlets"."wallets" DROP CONSTRAINT "wallets_type_check"`,
      `ALTER TABLE "outlets"."wallets" ADD CONSTRAINT "wallets_type_check" CHECK ("type" IN ('collection', 'deposit', 'settlement', 'rail', 'suspense'))`,
      `DROP TABLE "outlets"."price_plans"`,
      `DROP FUNCTION "outlets"."forbid_plan_change"`,
    ];
    for (const statement of statements) await runner.query(statement);
    await new MoveMoneyDecides1763769600026().up(runner);
  }
}
