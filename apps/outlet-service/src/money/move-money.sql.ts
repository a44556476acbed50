/**
 * outlets.move_money as it is in force: the one statement that claims a money command, decides
 * a checkout it pays, locks the wallets, checks the balance, writes the balanced entry and the
 * outbox event, and stores the answer. It takes the move as one JSON object, named as
 * MoneyMove names it (money-moves.repository.ts).
 *
 * A migration loads this text and records its digest (migration 043 is the latest); a unit test
 * fails when the text changes without one, and the ledger's integration suite compares it with
 * the function in a migrated database.
 */
export const moveMoneyFunction = `CREATE OR REPLACE FUNCTION "outlets"."move_money"(p_move json) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  p_business text; p_namespace text; p_reference text; p_kind text; p_request_hash text;
  p_source text; p_destination text; p_amount bigint; p_wallet_types text[];
  p_entry_id text; p_entry_kind text; p_entry_reference text; p_narration text; p_at timestamptz;
  p_result json; p_outbox json; p_outcome json;
  p_fee bigint; p_commission bigint; p_revenue text; p_commission_wallet text; p_deadline timestamptz;
  earlier record;
  wallet "outlets"."wallets"%ROWTYPE;
  source "outlets"."wallets"%ROWTYPE;
  destination "outlets"."wallets"%ROWTYPE;
BEGIN
  -- The move, named as MoneyMove names it (money-moves.repository.ts), read in one parse of it;
  -- result, outbox and outcome keep their text as the caller wrote it.
  SELECT m."business", m."namespace", m."reference", m."kind", m."requestHash", m."source", m."destination", m."amount", m."walletTypes",
         m."entryId", m."entryKind", m."entryReference", m."narration", m."at", m."result", m."outbox", m."outcome",
         coalesce(m."fee", 0), coalesce(m."commission", 0), m."revenueWallet", m."commissionWallet", m."deadline"
    INTO p_business, p_namespace, p_reference, p_kind, p_request_hash, p_source, p_destination, p_amount, p_wallet_types,
         p_entry_id, p_entry_kind, p_entry_reference, p_narration, p_at, p_result, p_outbox, p_outcome,
         p_fee, p_commission, p_revenue, p_commission_wallet, p_deadline
    FROM json_to_record(p_move) AS m("business" text, "namespace" text, "reference" text, "kind" text, "requestHash" text,
         "source" text, "destination" text, "amount" bigint, "walletTypes" text[], "entryId" text, "entryKind" text,
         "entryReference" text, "narration" text, "at" timestamptz, "result" json, "outbox" json, "outcome" json,
         "fee" bigint, "commission" bigint, "revenueWallet" text, "commissionWallet" text, "deadline" timestamptz);
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
