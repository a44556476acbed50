import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor sign-in with an authenticator app (TOTP). A member's secret is sealed under
 * MEMBER_SECRET_SEALING_KEY, bound to the member, and works once confirmed with a code; the
 * time step of the last code used is kept, so that no code is accepted twice. A session begun
 * with the password alone waits for the code; an owner may require two factors of everyone.
 */
export class MemberTwoFactor1763769600068 implements MigrationInterface {
  name = 'MemberTwoFactor1763769600068';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "gateway"."members"
      ADD COLUMN "totp_secret_sealed" text,
      ADD COLUMN "totp_enabled_at" timestamptz,
      ADD COLUMN "totp_last_step" bigint`);
    await runner.query(
      `ALTER TABLE "gateway"."member_sessions" ADD COLUMN "awaiting_code" boolean NOT NULL DEFAULT false`,
    );
    await runner.query(
      `ALTER TABLE "gateway"."businesses" ADD COLUMN "members_need_two_factor" boolean NOT NULL DEFAULT false`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "gateway"."businesses" DROP COLUMN "members_need_two_factor"`);
    await runner.query(`ALTER TABLE "gateway"."member_sessions" DROP COLUMN "awaiting_code"`);
    await runner.query(`ALTER TABLE "gateway"."members"
      DROP COLUMN "totp_secret_sealed", DROP COLUMN "totp_enabled_at", DROP COLUMN "totp_last_step"`);
  }
}
