import { dropOutboxTablesV1, outboxTablesV1 } from '@payments/platform-outbox';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763769600001 implements MigrationInterface {
  name = 'InitialSchema1763769600001';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of outboxTablesV1('pos_ingest')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropOutboxTablesV1('pos_ingest')) await runner.query(statement);
  }
}
