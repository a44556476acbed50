import { MigrationInterface, QueryRunner } from 'typeorm';

/** The trace of the event a delivery came from, so the attempt's span joins it (null while tracing is off). */
export class DeliveryTraceContext1763769600030 implements MigrationInterface {
  name = 'DeliveryTraceContext1763769600030';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "webhooks"."deliveries" ADD COLUMN "trace_context" json`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "webhooks"."deliveries" DROP COLUMN "trace_context"`);
  }
}
