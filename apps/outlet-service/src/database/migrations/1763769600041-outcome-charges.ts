import { MigrationInterface, QueryRunner } from 'typeorm';

import { MoneyCommandDeadline1763769600036 } from './1763769600036-money-command-deadline';

/** outlets.move_money as this migration made it (frozen: ledger/move-money.sql.ts holds the one in force). */
export const moveMoneyFunction041 = `CREATE OR REPLACE FUNCTION "outlets"."move_money"(
  p_business text, p_namespace text, p_reference text, p_kind text, p_request_hash text,
  p_source text, p_destination text, p_amount bigint, p_wallet_types text[],
  p_entry_id text, p_entry_kind text, p_entry_reference text, p_narration text, p_at timestamptz,
  p_result json, p_outbox json, p_outcome json,
  p_fee bigint, p_commission bigint, p_revenue text, p_commission_wallet text, p_deadline timestamptz
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
  -- Holding the key, after any twin finished: past the requester's deadline the caller was
  -- told 503 and may have retried and been refused since, so this attempt books nothing.
  IF p_deadline IS NOT NULL AND clock_timestamp() >= p_deadline THEN
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'SERVICE_UNAVAILABLE', DETAIL = 'The request was not handled in time; retry it with the same reference';
  END IF;
  -- A checkout payment decides its checkout, with the charge it books, unless something else
  -- did first: then the caller books it another way (a refund), and nothing here happened.
  IF p_outcome IS NOT NULL THEN
    INSERT INTO "outlets"."checkout_outcomes" ("checkout_reference", "business_id", "status", "method", "payment_id", "masked_card", "comment", "fee", "commission", "net_amount")
      VALUES (p_outcome->>'checkoutReference', p_business, p_outcome->>'status', p_outcome->>'method', p_outcome->>'paymentId', p_outcome->>'maskedCard', p_outcome->>'comment',
              (p_outcome->'charge'->>'fee')::bigint, (p_outcome->'charge'->>'commission')::bigint, (p_outcome->'charge'->>'netAmount')::bigint)
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
END $$`;

const moveMoneyArguments =
  'text, text, text, text, text, text, text, bigint, text[], text, text, text, text, timestamptz, json, json, json, bigint, bigint, text';

/**
 * A paid checkout's outcome keeps the charge its payment booked, so the outcome answered to a
 * second payment or a late closing states the same fee as the first; move_money stores it
 * with the outcome it decides. Outcomes decided before this release get theirs from their
 * journal entry: the rail posting is the amount, and of the settlement postings the first one
 * written is what the wallet received and a second one the commission. The move_money
 * overload without a deadline, kept for the rollout of migration 036, is dropped.
 */
export class OutcomeCharges1763769600041 implements MigrationInterface {
  name = 'OutcomeCharges1763769600041';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "outlets"."checkout_outcomes" ADD COLUMN "fee" bigint, ADD COLUMN "commission" bigint, ADD COLUMN "net_amount" bigint`,
      `UPDATE "outlets"."checkout_outcomes" o SET "fee" = booked."amount" - booked."net", "commission" = booked."commission", "net_amount" = booked."net"
        FROM (
          SELECT e."business_id", e."reference",
            -sum(p."amount") FILTER (WHERE w."type" = 'rail') AS "amount",
            coalesce((array_agg(p."amount" ORDER BY p."id") FILTER (WHERE w."type" = 'settlement'))[1], 0) AS "net",
            coalesce((array_agg(p."amount" ORDER BY p."id") FILTER (WHERE w."type" = 'settlement'))[2], 0) AS "commission"
          FROM "outlets"."journal_entries" e
          JOIN "outlets"."postings" p ON p."entry_id" = e."id"
          JOIN "outlets"."wallets" w ON w."id" = p."wallet_id"
          WHERE e."kind" = 'checkout'
          GROUP BY e."id", e."business_id", e."reference"
        ) booked
        WHERE o."status" = 'SUCCESS' AND booked."business_id" = o."business_id" AND booked."reference" = o."checkout_reference"`,
      `ALTER TABLE "outlets"."checkout_outcomes" ADD CONSTRAINT "checkout_outcomes_charge_check"
        CHECK ("fee" IS NULL OR ("commission" BETWEEN 0 AND "fee" AND "net_amount" >= 0))`,
      `DROP FUNCTION IF EXISTS "outlets"."move_money"(${moveMoneyArguments}, text)`,
      moveMoneyFunction041,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION "outlets"."move_money"(${moveMoneyArguments}, text, timestamptz)`);
    await new MoneyCommandDeadline1763769600036().up(runner);
    await runner.query(
      `ALTER TABLE "outlets"."checkout_outcomes" DROP CONSTRAINT "checkout_outcomes_charge_check", DROP COLUMN "fee", DROP COLUMN "commission", DROP COLUMN "net_amount"`,
    );
  }
}
