import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A request's sender no longer claims it in a statement of its own before writing it: it sends
 * within a bound of writing it or not at all, and an approval that comes for a request given up
 * meanwhile is reversed (card-authoriser.ts).
 */
export class DropRequestClaims1763769600066 implements MigrationInterface {
  name = 'DropRequestClaims1763769600066';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "card_processor"."network_requests" DROP COLUMN "sending_at"`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "card_processor"."network_requests" ADD COLUMN "sending_at" timestamptz`);
  }
}
