import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money events of a business whose onboarding has not reached outlet-service yet wait here
 * rather than on their Kafka partition, where they would hold up every other business's.
 */
export class AwaitingOnboarding1763769600028 implements MigrationInterface {
  name = 'AwaitingOnboarding1763769600028';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "outlets"."awaiting_onboarding" (
      "event_id" text PRIMARY KEY,
      "business_id" text NOT NULL,
      "kind" text NOT NULL,
      "event" jsonb NOT NULL,
      "received_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(
      `CREATE INDEX "awaiting_onboarding_business_idx" ON "outlets"."awaiting_onboarding" ("business_id", "received_at")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "outlets"."awaiting_onboarding"`);
  }
}
