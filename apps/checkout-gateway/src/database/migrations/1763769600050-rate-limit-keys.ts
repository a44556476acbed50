import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partner-api limit counted each key pair under its API key in clear, and the key signs the
 * partner's webhooks: a dump of the table could forge them. It now counts by business and key
 * id, and the windows of the old form are deleted. That costs at most one window of counting,
 * as a failover does; an instance of the earlier release still running writes a few more, which
 * the sweep deletes (PostgresTokenStore).
 */
export class RateLimitKeys1763769600050 implements MigrationInterface {
  name = 'RateLimitKeys1763769600050';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM "gateway"."rate_limit_windows" WHERE "key" LIKE 'partner-api:%'`);
  }

  async down(): Promise<void> {
    // Nothing to restore: the counts start again with the next window.
  }
}
