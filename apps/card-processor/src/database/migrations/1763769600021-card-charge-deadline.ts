import { MigrationInterface, QueryRunner } from 'typeorm';

/** The checkout's expiry, copied onto its charge: no verification step completes after it. */
export class CardChargeDeadline1763769600021 implements MigrationInterface {
  name = 'CardChargeDeadline1763769600021';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "card_processor"."card_charges" ADD COLUMN "expires_at" timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "card_processor"."card_charges" DROP COLUMN "expires_at"`);
  }
}
