import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The services a business's onboarding has not been confirmed by yet. Empty once every service
 * that keeps its own record of the business has it; businesses created before this column were
 * onboarded long ago, hence the empty default. The partial index keeps the search for pending
 * onboardings to the few businesses still waiting.
 */
export class BusinessOnboarding1763769600048 implements MigrationInterface {
  name = 'BusinessOnboarding1763769600048';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE "gateway"."businesses" ADD COLUMN "onboarding_awaits" text[] NOT NULL DEFAULT '{}'`,
    );
    await runner.query(
      `CREATE INDEX "businesses_onboarding_pending_idx" ON "gateway"."businesses" ("created_at")
        WHERE cardinality("onboarding_awaits") > 0`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "gateway"."businesses_onboarding_pending_idx"`);
    await runner.query(`ALTER TABLE "gateway"."businesses" DROP COLUMN "onboarding_awaits"`);
  }
}
