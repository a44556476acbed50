import { MigrationInterface, QueryRunner } from 'typeorm';

export class CardCharges1763769600011 implements MigrationInterface {
  name = 'CardCharges1763769600011';

  async up(runner: QueryRunner): Promise<void> {
    // One charge per checkout. The PAN is kept masked and as a keyed fingerprint (to recognise
    // a retry with the same card); CVV, PIN and expiry are never stored.
    await runner.query(`CREATE TABLE "card_processor"."card_charges" (
      "id" text PRIMARY KEY,
      "checkout_reference" text NOT NULL CONSTRAINT "card_charges_checkout_key" UNIQUE,
      "business_id" text NOT NULL,
      "amount" bigint NOT NULL,
      "masked_pan" text NOT NULL,
      "card_fingerprint" text NOT NULL,
      "steps" text[] NOT NULL,
      "attempts_left" integer NOT NULL,
      "issuer_decline" text,
      "status" text NOT NULL CONSTRAINT "card_charges_status_check" CHECK ("status" IN ('PROCESSING', 'SUCCESS', 'FAILED')),
      "decline_reason" text,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "card_processor"."card_charges"`);
  }
}
