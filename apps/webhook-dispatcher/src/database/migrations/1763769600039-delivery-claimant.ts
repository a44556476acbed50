import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records which dispatcher instance leased a delivery. An endpoint's deliveries are leased to one
 * instance at a time, so its slots (WEBHOOK_PER_ENDPOINT_CONCURRENCY) hold across replicas
 * instead of once per replica. Rows leased before this column existed count as another
 * instance's, so a rollout never doubles an endpoint's slots either.
 */
export class DeliveryClaimant1763769600039 implements MigrationInterface {
  name = 'DeliveryClaimant1763769600039';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "webhooks"."deliveries" ADD COLUMN "leased_by" text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "webhooks"."deliveries" DROP COLUMN "leased_by"`);
  }
}
