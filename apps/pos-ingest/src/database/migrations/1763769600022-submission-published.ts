import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a submission's message reached the broker. A claim without it (the broker failed) is
 * kept, so the terminal's retry publishes the same transaction under the same reference.
 */
export class SubmissionPublished1763769600022 implements MigrationInterface {
  name = 'SubmissionPublished1763769600022';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "pos_ingest"."submissions" ADD COLUMN "published_at" timestamptz`);
    // Until now a row existed only once its message was acknowledged.
    await runner.query(`UPDATE "pos_ingest"."submissions" SET "published_at" = "created_at"`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "pos_ingest"."submissions" DROP COLUMN "published_at"`);
  }
}
