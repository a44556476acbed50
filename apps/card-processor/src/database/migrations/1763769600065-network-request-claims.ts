import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a request's sender claimed it to write it to the host: a request written as sent is only
 * given up as stranded a timeout after that, and one already given up is never written.
 */
export class NetworkRequestClaims1763769600065 implements MigrationInterface {
  name = 'NetworkRequestClaims1763769600065';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "card_processor"."network_requests" ADD COLUMN "sending_at" timestamptz`);
    // Abandoned checkouts' cards are let go after their expiry: found by this index, not a scan.
    await runner.query(
      `CREATE INDEX "card_charges_held_cards" ON "card_processor"."card_charges" ("expires_at") WHERE "sealed_card" IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "card_processor"."card_charges_held_cards"`);
    await runner.query(`ALTER TABLE "card_processor"."network_requests" DROP COLUMN "sending_at"`);
  }
}
