import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each reconciliation of a settlement date (`npm run reconcile`): what it found and the host's
 * answer, kept for operators and read by the app's metrics.
 */
export class Reconciliations1763769600063 implements MigrationInterface {
  name = 'Reconciliations1763769600063';

  async up(runner: QueryRunner): Promise<void> {
    // Written by the command as the schema's owner; the app only reads the latest per network.
    // `host_agreed` is null when the host did not answer the 0500.
    await runner.query(`CREATE TABLE "card_processor"."reconciliations" (
      "id" text PRIMARY KEY,
      "network" text NOT NULL CONSTRAINT "reconciliations_network_check" CHECK ("network" IN ('sandbox', 'live')),
      "settlement_date" date NOT NULL,
      "ran_at" timestamptz NOT NULL DEFAULT now(),
      "differences" integer NOT NULL CONSTRAINT "reconciliations_differences_check" CHECK ("differences" >= 0),
      "host_agreed" boolean,
      "report" jsonb NOT NULL
    )`);
    await runner.query(
      `CREATE INDEX "reconciliations_latest" ON "card_processor"."reconciliations" ("network", "ran_at" DESC)`,
    );
    // Requests no 0210 dated are reconciled by the Lagos date they were sent on.
    await runner.query(
      `CREATE INDEX "network_requests_undated" ON "card_processor"."network_requests" ("network", "transmitted_at") WHERE "settlement_date" IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "card_processor"."network_requests_undated"`);
    await runner.query(`DROP TABLE "card_processor"."reconciliations"`);
  }
}
