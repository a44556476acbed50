import { MigrationInterface, QueryRunner } from 'typeorm';

/** A refund of a card payment leaves the rail's queue when it is sent to the card network. */
export class CardRefunds1763769600062 implements MigrationInterface {
  name = 'CardRefunds1763769600062';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "outlets"."refunds" ADD COLUMN "sent_to_card_network_at" timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "outlets"."refunds" DROP COLUMN "sent_to_card_network_at"`);
  }
}
