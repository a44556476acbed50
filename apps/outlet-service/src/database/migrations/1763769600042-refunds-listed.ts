import { MigrationInterface, QueryRunner } from 'typeorm';

/** GET /refunds pages a business's refunds newest first, by id (a ULID: the order they were accepted in). */
export class RefundsListed1763769600042 implements MigrationInterface {
  name = 'RefundsListed1763769600042';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX "refunds_business_idx" ON "outlets"."refunds" ("business_id", "id" DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "outlets"."refunds_business_idx"`);
  }
}
