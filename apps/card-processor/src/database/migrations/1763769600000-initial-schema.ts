import { dropOutboxTablesV1, outboxTablesV1 } from '@payments/platform-outbox';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763769600000 implements MigrationInterface {
  name = 'InitialSchema1763769600000';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of outboxTablesV1('card_processor')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropOutboxTablesV1('card_processor')) await runner.query(statement);
  }
}
