import { MigrationInterface, QueryRunner } from 'typeorm';

export class PosAuthorisations1763769600009 implements MigrationInterface {
  name = 'PosAuthorisations1763769600009';

  async up(runner: QueryRunner): Promise<void> {
    // The PAN is kept masked (first 6, last 4); PIN block, track 2 and ICC data are never stored.
    await runner.query(`CREATE TABLE "card_processor"."pos_authorisations" (
      "reference" text PRIMARY KEY,
      "business_id" text NOT NULL,
      "serial_number" text NOT NULL,
      "outlet_id" text,
      "amount" bigint NOT NULL,
      "masked_pan" text NOT NULL,
      "approved" boolean NOT NULL,
      "decline_reason" text,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "card_processor"."pos_authorisations"`);
  }
}
