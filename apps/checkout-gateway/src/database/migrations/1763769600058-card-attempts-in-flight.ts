import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card attempts let through and not yet answered by card-processor: each may yet be a decline,
 * so the card-testing defence counts them against their business's budget of declines. Few
 * rows are in flight at any moment, so their index stays small.
 */
export class CardAttemptsInFlight1763769600058 implements MigrationInterface {
  name = 'CardAttemptsInFlight1763769600058';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "gateway"."card_attempts" ADD COLUMN "in_flight" boolean NOT NULL DEFAULT false`);
    await runner.query(
      `CREATE INDEX "card_attempts_in_flight_idx" ON "gateway"."card_attempts" ("business_id", "attempted_at")
        WHERE "in_flight"`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "gateway"."card_attempts_in_flight_idx"`);
    await runner.query(`ALTER TABLE "gateway"."card_attempts" DROP COLUMN "in_flight"`);
  }
}
