import { MigrationInterface, QueryRunner } from 'typeorm';

export class Businesses1763769600005 implements MigrationInterface {
  name = 'Businesses1763769600005';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "gateway"."businesses" (
      "id" text PRIMARY KEY,
      "name" text NOT NULL,
      "mode" text NOT NULL CONSTRAINT "businesses_mode_check" CHECK ("mode" IN ('test', 'live')),
      "api_key_hash" text NOT NULL,
      "api_key_sealed" text NOT NULL,
      "api_secret_hash" text NOT NULL,
      "pos_encryption_key_sealed" text NOT NULL,
      "webhook_url" text,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE UNIQUE INDEX "businesses_api_key_hash_key" ON "gateway"."businesses" ("api_key_hash")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "gateway"."businesses"`);
  }
}
