import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * References are now derived from each transaction with a keyed hash (POS_REFERENCE_KEY), so
 * pos-ingest stores nothing per submission: its table of accepted submissions goes.
 * card-processor's record of each reference stays the deduplication.
 */
export class DerivedReferences1763769600029 implements MigrationInterface {
  name = 'DerivedReferences1763769600029';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "pos_ingest"."submissions"`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "pos_ingest"."submissions" (
      "dedupe_key" text PRIMARY KEY,
      "reference" text NOT NULL CONSTRAINT "submissions_reference_key" UNIQUE,
      "serial_number" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "published_at" timestamptz
    )`);
  }
}
