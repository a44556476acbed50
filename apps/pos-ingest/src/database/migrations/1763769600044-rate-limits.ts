import { dropRateLimitTablesV1, rateLimitTablesV1 } from '@payments/platform-rate-limit';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Terminals' rate limit windows shared by every pos-ingest instance, and operators' per-business quotas. */
export class RateLimits1763769600044 implements MigrationInterface {
  name = 'RateLimits1763769600044';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of rateLimitTablesV1('pos_ingest')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropRateLimitTablesV1('pos_ingest')) await runner.query(statement);
  }
}
