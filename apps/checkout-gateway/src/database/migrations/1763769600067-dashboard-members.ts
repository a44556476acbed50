import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's people: each business's members (an email, a role, a password hash), the
 * one-time links that invite them, their sessions, the addresses and accounts whose sign-ins
 * are being held back, and an audit trail of what people and keys changed. Tokens of links,
 * sessions and devices are kept as SHA-256 hashes only: a read of the table signs nobody in.
 */
export class DashboardMembers1763769600067 implements MigrationInterface {
  name = 'DashboardMembers1763769600067';

  async up(runner: QueryRunner): Promise<void> {
    const role = (table: string) =>
      `"role" text NOT NULL CONSTRAINT "${table}_role_check" CHECK ("role" IN ('owner', 'developer', 'operations', 'viewer'))`;
    // An email is one person's sign-in everywhere: it belongs to one business's members.
    await runner.query(`CREATE TABLE "gateway"."members" (
      "id" text PRIMARY KEY,
      "business_id" text NOT NULL REFERENCES "gateway"."businesses" ("id"),
      "email" text NOT NULL CONSTRAINT "members_email_key" UNIQUE CONSTRAINT "members_email_check" CHECK ("email" = lower("email")),
      ${role('members')},
      "password_hash" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE INDEX "members_business_idx" ON "gateway"."members" ("business_id", "created_at")`);
    await runner.query(`CREATE TABLE "gateway"."member_invitations" (
      "token_hash" text PRIMARY KEY,
      "business_id" text NOT NULL REFERENCES "gateway"."businesses" ("id"),
      "email" text NOT NULL CONSTRAINT "member_invitations_email_check" CHECK ("email" = lower("email")),
      ${role('member_invitations')},
      "invited_by" text,
      "expires_at" timestamptz NOT NULL,
      "accepted_at" timestamptz,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(
      `CREATE INDEX "member_invitations_business_idx" ON "gateway"."member_invitations" ("business_id", "created_at")`,
    );
    await runner.query(`CREATE TABLE "gateway"."member_sessions" (
      "token_hash" text PRIMARY KEY,
      "member_id" text NOT NULL REFERENCES "gateway"."members" ("id") ON DELETE CASCADE,
      "client_address" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "seen_at" timestamptz NOT NULL DEFAULT now(),
      "expires_at" timestamptz NOT NULL
    )`);
    await runner.query(`CREATE INDEX "member_sessions_member_idx" ON "gateway"."member_sessions" ("member_id")`);
    await runner.query(`CREATE INDEX "member_sessions_expiry_idx" ON "gateway"."member_sessions" ("expires_at")`);
    // A browser a member signed in on before: its sign-ins are not held back with the account's.
    await runner.query(`CREATE TABLE "gateway"."member_devices" (
      "token_hash" text PRIMARY KEY,
      "member_id" text NOT NULL REFERENCES "gateway"."members" ("id") ON DELETE CASCADE,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE INDEX "member_devices_member_idx" ON "gateway"."member_devices" ("member_id")`);
    // Sign-in attempts in the current window, by account, by address, and by both.
    await runner.query(`CREATE TABLE "gateway"."sign_in_attempts" (
      "key" text PRIMARY KEY,
      "attempts" integer NOT NULL,
      "window_started_at" timestamptz NOT NULL
    )`);
    await runner.query(`CREATE TABLE "gateway"."audit_events" (
      "id" bigserial PRIMARY KEY,
      "business_id" text NOT NULL REFERENCES "gateway"."businesses" ("id"),
      "actor_kind" text NOT NULL CONSTRAINT "audit_events_actor_kind_check" CHECK ("actor_kind" IN ('member', 'key', 'operator')),
      "actor" text NOT NULL,
      "action" text NOT NULL,
      "subject" text,
      "client_address" text,
      "at" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE INDEX "audit_events_business_idx" ON "gateway"."audit_events" ("business_id", "id")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'audit_events',
      'sign_in_attempts',
      'member_devices',
      'member_sessions',
      'member_invitations',
      'members',
    ]) {
      await runner.query(`DROP TABLE "gateway"."${table}"`);
    }
  }
}
