import { dropRateLimitTablesV1, rateLimitTablesV1 } from '@payments/platform-rate-limit';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Rate limit windows shared by every gateway instance, and operators' per-business quotas. */
export class RateLimits1763769600044 implements MigrationInterface {
  name = 'RateLimits1763769600044';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of rateLimitTablesV1('gateway')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropRateLimitTablesV1('gateway')) await runner.query(statement);
  }
}
