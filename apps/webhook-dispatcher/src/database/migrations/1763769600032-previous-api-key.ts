import { MigrationInterface, QueryRunner } from 'typeorm';

/** The API key a business rolled, sealed, and until when webhooks are signed with it too. */
export class PreviousApiKey1763769600032 implements MigrationInterface {
  name = 'PreviousApiKey1763769600032';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE "webhooks"."endpoints" ADD COLUMN "previous_api_key_sealed" text, ADD COLUMN "previous_key_expires_at" timestamptz`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE "webhooks"."endpoints" DROP COLUMN "previous_api_key_sealed", DROP COLUMN "previous_key_expires_at"`,
    );
  }
}
