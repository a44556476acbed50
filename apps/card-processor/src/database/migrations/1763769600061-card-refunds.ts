import { MigrationInterface, QueryRunner } from 'typeorm';

/** Refunds of card payments paid back through the card network: each decided once, by the network's answer. */
export class CardRefunds1763769600061 implements MigrationInterface {
  name = 'CardRefunds1763769600061';

  async up(runner: QueryRunner): Promise<void> {
    // `approved` is null while the network decides.
    await runner.query(`CREATE TABLE "card_processor"."card_refunds" (
      "refund_reference" text PRIMARY KEY,
      "business_id" text NOT NULL,
      "payment_kind" text NOT NULL CONSTRAINT "card_refunds_payment_kind_check" CHECK ("payment_kind" IN ('checkout', 'pos')),
      "payment_reference" text NOT NULL,
      "amount" bigint NOT NULL,
      "approved" boolean,
      "decline_reason" text,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "card_processor"."card_refunds"`);
  }
}
