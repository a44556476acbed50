import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What card-processor sends to a card network: each authorisation request as it went out and
 * how it ended, the numbers that identify it on the network, and the acceptor ids a business
 * and its terminals are known by there.
 */
export class CardNetwork1763769600060 implements MigrationInterface {
  name = 'CardNetwork1763769600060';

  async up(runner: QueryRunner): Promise<void> {
    // DE11 (STAN) cycles through six digits: unique within a day up to a million messages a day
    // across every instance. DE37 (RRN) never repeats: twelve digits, drawn once each.
    await runner.query(`CREATE SEQUENCE "card_processor"."network_stan" MINVALUE 1 MAXVALUE 999999 CYCLE`);
    await runner.query(`CREATE SEQUENCE "card_processor"."network_rrn" MINVALUE 1 MAXVALUE 999999999999 NO CYCLE`);
    // DE42 per business and DE41 per terminal (a business's checkouts are one virtual
    // terminal), drawn on first use and never changed.
    await runner.query(`CREATE SEQUENCE "card_processor"."merchant_numbers" MINVALUE 1 MAXVALUE 999999999999 NO CYCLE`);
    await runner.query(`CREATE SEQUENCE "card_processor"."terminal_numbers" MINVALUE 1 MAXVALUE 9999999 NO CYCLE`);
    await runner.query(`CREATE TABLE "card_processor"."card_merchants" (
      "business_id" text PRIMARY KEY,
      "merchant_id" text NOT NULL CONSTRAINT "card_merchants_merchant_id_key" UNIQUE,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "card_processor"."card_terminals" (
      "business_id" text NOT NULL,
      "terminal_key" text NOT NULL,
      "terminal_id" text NOT NULL CONSTRAINT "card_terminals_terminal_id_key" UNIQUE,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("business_id", "terminal_key")
    )`);
    // One 0200 per payment. The PAN stays sealed (with CARD_DATA_KEY, bound to the row) only
    // while a reversal may still need it, and is cleared once the request is final.
    await runner.query(`CREATE TABLE "card_processor"."network_requests" (
      "id" text PRIMARY KEY,
      "network" text NOT NULL CONSTRAINT "network_requests_network_check" CHECK ("network" IN ('sandbox', 'live')),
      "acquirer_id" text NOT NULL,
      "stan" text NOT NULL,
      "rrn" text NOT NULL,
      "purpose" text NOT NULL CONSTRAINT "network_requests_purpose_check" CHECK ("purpose" IN ('checkout', 'pos', 'refund')),
      "payment_reference" text NOT NULL,
      "business_id" text NOT NULL,
      "processing_code" text NOT NULL,
      "amount" bigint NOT NULL,
      "transmitted_at" timestamptz NOT NULL,
      "merchant_id" text NOT NULL,
      "terminal_id" text NOT NULL,
      "sealed_pan" text,
      "state" text NOT NULL CONSTRAINT "network_requests_state_check" CHECK ("state" IN ('sent', 'approved', 'declined', 'unknown', 'reversed')),
      "response_code" text,
      "authorisation_code" text,
      "settlement_date" date,
      "reversal_attempts" integer NOT NULL DEFAULT 0,
      "reversal_due_at" timestamptz,
      "reversal_code" text,
      "reversed_at" timestamptz,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "network_requests_rrn_key" UNIQUE ("acquirer_id", "rrn"),
      CONSTRAINT "network_requests_payment_key" UNIQUE ("purpose", "payment_reference")
    )`);
    await runner.query(
      `CREATE INDEX "network_requests_reversal_due" ON "card_processor"."network_requests" ("reversal_due_at") WHERE "state" = 'unknown'`,
    );
    await runner.query(
      `CREATE INDEX "network_requests_in_flight" ON "card_processor"."network_requests" ("transmitted_at") WHERE "state" = 'sent'`,
    );
    await runner.query(
      `CREATE INDEX "network_requests_settlement" ON "card_processor"."network_requests" ("network", "settlement_date")`,
    );
    // A checkout's card (PAN and expiry, sealed) waits here for its verification steps, and is
    // cleared when the charge ends: the CVV is never kept.
    await runner.query(`ALTER TABLE "card_processor"."card_charges" ADD COLUMN "sealed_card" text`);
    // Which network the charge goes to once its steps are done.
    await runner.query(
      `ALTER TABLE "card_processor"."card_charges" ADD COLUMN "business_mode" text CONSTRAINT "card_charges_business_mode_check" CHECK ("business_mode" IN ('test', 'live'))`,
    );
    // A POS authorisation is written when its request goes out, and decided when the answer comes.
    await runner.query(`ALTER TABLE "card_processor"."pos_authorisations" ALTER COLUMN "approved" DROP NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM "card_processor"."pos_authorisations" WHERE "approved" IS NULL`);
    await runner.query(`ALTER TABLE "card_processor"."pos_authorisations" ALTER COLUMN "approved" SET NOT NULL`);
    await runner.query(`ALTER TABLE "card_processor"."card_charges" DROP COLUMN "business_mode"`);
    await runner.query(`ALTER TABLE "card_processor"."card_charges" DROP COLUMN "sealed_card"`);
    await runner.query(`DROP TABLE "card_processor"."network_requests"`);
    await runner.query(`DROP TABLE "card_processor"."card_terminals"`);
    await runner.query(`DROP TABLE "card_processor"."card_merchants"`);
    await runner.query(`DROP SEQUENCE "card_processor"."terminal_numbers"`);
    await runner.query(`DROP SEQUENCE "card_processor"."merchant_numbers"`);
    await runner.query(`DROP SEQUENCE "card_processor"."network_rrn"`);
    await runner.query(`DROP SEQUENCE "card_processor"."network_stan"`);
  }
}
