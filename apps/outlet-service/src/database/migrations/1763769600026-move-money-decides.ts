import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * move_money learns two things: the kind of its journal entry apart from the command's kind
 * (a card charge books a checkout entry), and an optional checkout outcome to decide in the
 * same call, so a checkout payment is booked and decides its checkout in one round trip.
 */
export class MoveMoneyDecides1763769600026 implements MigrationInterface {
  name = 'MoveMoneyDecides1763769600026';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `DROP FUNCTION "outlets"."move_money"(text, text, text, text, text, text, text, bigint, text[], text, text, text, timestamptz, json, json)`,
    );
    await runner.query(`CREATE FUNCTION "outlets"."move_money"(
        p_business text, p_namespace text, p_reference text, p_kind text, p_request_hash text,
        p_source text, p_destination text, p_amount bigint, p_wallet_types text[],
        p_entry_id text, p_entry_kind text, p_entry_reference text, p_narration text, p_at timestamptz,
        p_result json, p_outbox json, p_outcome json
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
        -- Both wallets locked in id order, so two commands on the same pair queue instead of deadlocking.
        FOR wallet IN SELECT * FROM "outlets"."wallets" WHERE "business_id" = p_business AND "id" IN (p_source, p_destination) ORDER BY "id" FOR UPDATE LOOP
          IF wallet."id" = p_source THEN source := wallet; ELSE destination := wallet; END IF;
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
        INSERT INTO "outlets"."postings" ("entry_id", "wallet_id", "amount", "created_at")
          VALUES (p_entry_id, p_source, -p_amount, p_at), (p_entry_id, p_destination, p_amount, p_at);
        IF p_outbox IS NOT NULL THEN
          INSERT INTO "outlets"."outbox" ("id", "topic", "message_key", "payload", "headers")
            VALUES ((p_outbox->>'id')::uuid, p_outbox->>'topic', p_outbox->>'key', p_outbox->'payload', p_outbox->'headers');
        END IF;
        RETURN p_result;
      END $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `DROP FUNCTION "outlets"."move_money"(text, text, text, text, text, text, text, bigint, text[], text, text, text, text, timestamptz, json, json, json)`,
    );
    await new (await import('./1763769600025-move-money')).MoveMoney1763769600025().up(runner);
  }
}
