import { dropOutboxTablesV1, outboxTablesV1 } from '@payments/platform-outbox';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763769600003 implements MigrationInterface {
  name = 'InitialSchema1763769600003';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of outboxTablesV1('webhooks')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropOutboxTablesV1('webhooks')) await runner.query(statement);
  }
}
