import { MigrationInterface, QueryRunner } from 'typeorm';

/** Waiting deliveries by endpoint and age: a claim takes each endpoint's oldest without scanning the backlog. */
export class PendingByUrl1763769600027 implements MigrationInterface {
  name = 'PendingByUrl1763769600027';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX "deliveries_pending_url_idx" ON "webhooks"."deliveries" ("url", "next_attempt_at") WHERE "status" = 'pending'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "webhooks"."deliveries_pending_url_idx"`);
  }
}
