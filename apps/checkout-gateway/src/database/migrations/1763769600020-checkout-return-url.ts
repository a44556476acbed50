import { MigrationInterface, QueryRunner } from 'typeorm';

/** Where the hosted page sends the customer back to once the checkout ends. */
export class CheckoutReturnUrl1763769600020 implements MigrationInterface {
  name = 'CheckoutReturnUrl1763769600020';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "gateway"."checkouts" ADD COLUMN "return_url" text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "gateway"."checkouts" DROP COLUMN "return_url"`);
  }
}
