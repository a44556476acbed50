import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each terminal's PIN key, as the PIN security module wrapped it under its master key (never in
 * the clear): the key its PIN blocks are under. Null for a terminal registered without one.
 */
export class TerminalPinKeys1763769600064 implements MigrationInterface {
  name = 'TerminalPinKeys1763769600064';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "pos_ingest"."terminals" ADD COLUMN "pin_key_under_lmk" text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "pos_ingest"."terminals" DROP COLUMN "pin_key_under_lmk"`);
  }
}
