import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outlets of each business, as outlet-service's outlet.opened.v1 events announce them: a
 * terminal is registered only to an outlet of its own business, so a mistyped id is refused
 * instead of sending the terminal's money to the settlement wallet.
 */
export class KnownOutlets1763769600041 implements MigrationInterface {
  name = 'KnownOutlets1763769600041';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "pos_ingest"."outlets" (
      "business_id" text NOT NULL,
      "outlet_id" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "outlets_pkey" PRIMARY KEY ("business_id", "outlet_id")
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "pos_ingest"."outlets"`);
  }
}
