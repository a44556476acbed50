import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an approval came for a request already given up: a reversal answered "nothing to
 * reverse" does not close such a request (the host may have taken the 0420 before the 0200).
 * Since this release nothing writes sending_at (added by 0065); it goes in a later one, once no
 * instance of an earlier release runs.
 */
export class LateApprovals1763769600066 implements MigrationInterface {
  name = 'LateApprovals1763769600066';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "card_processor"."network_requests" ADD COLUMN "approved_late_at" timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "card_processor"."network_requests" DROP COLUMN "approved_late_at"`);
  }
}
