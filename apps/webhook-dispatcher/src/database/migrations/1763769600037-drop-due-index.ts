import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops the index of every waiting delivery by due time. Claims read each endpoint's waiting
 * deliveries off `deliveries_pending_url_idx`; but once statistics were taken while nothing
 * waited, the planner judged this index empty and read a burst's whole backlog through it, once
 * per endpoint, for every claim. The backlog metric reads the endpoints' index instead.
 */
export class DropDueIndex1763769600037 implements MigrationInterface {
  name = 'DropDueIndex1763769600037';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "webhooks"."deliveries_due_idx"`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX "deliveries_due_idx" ON "webhooks"."deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
  }
}
