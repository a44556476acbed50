import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Key pairs move to a table of their own, so that a business can hold a new pair and, for a
 * grace period, the one it rolled; with an audit trail of creations, rolls and expiries.
 * The old columns on businesses are only made optional: pods of the previous release still read
 * them while the rollout replaces them. A later release drops them.
 */
export class BusinessKeys1763769600031 implements MigrationInterface {
  name = 'BusinessKeys1763769600031';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "gateway"."business_keys" (
      "api_key_hash" text PRIMARY KEY,
      "business_id" text NOT NULL REFERENCES "gateway"."businesses" ("id"),
      "api_key_hint" text,
      "api_key_sealed" text NOT NULL,
      "api_secret_hash" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "expires_at" timestamptz,
      "expiry_recorded_at" timestamptz
    )`);
    // One pair in use per business; the rolled ones carry their expiry.
    await runner.query(
      `CREATE UNIQUE INDEX "business_keys_in_use_key" ON "gateway"."business_keys" ("business_id") WHERE "expires_at" IS NULL`,
    );
    await runner.query(
      `CREATE INDEX "business_keys_unrecorded_expiry_idx" ON "gateway"."business_keys" ("expires_at") WHERE "expires_at" IS NOT NULL AND "expiry_recorded_at" IS NULL`,
    );
    await runner.query(`INSERT INTO "gateway"."business_keys" ("api_key_hash", "business_id", "api_key_sealed", "api_secret_hash", "created_at")
      SELECT "api_key_hash", "id", "api_key_sealed", "api_secret_hash", "created_at" FROM "gateway"."businesses"`);
    await runner.query(`CREATE TABLE "gateway"."key_audit" (
      "id" bigserial PRIMARY KEY,
      "business_id" text NOT NULL REFERENCES "gateway"."businesses" ("id"),
      "action" text NOT NULL CONSTRAINT "key_audit_action_check" CHECK ("action" IN ('created', 'rolled', 'expired')),
      "api_key_hint" text,
      "actor" text,
      "at" timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE INDEX "key_audit_business_idx" ON "gateway"."key_audit" ("business_id", "id")`);
    for (const column of ['api_key_hash', 'api_key_sealed', 'api_secret_hash']) {
      await runner.query(`ALTER TABLE "gateway"."businesses" ALTER COLUMN "${column}" DROP NOT NULL`);
    }
    await runner.query(`DROP INDEX "gateway"."businesses_api_key_hash_key"`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "gateway"."key_audit"`);
    await runner.query(`DROP TABLE "gateway"."business_keys"`);
    await runner.query(`CREATE UNIQUE INDEX "businesses_api_key_hash_key" ON "gateway"."businesses" ("api_key_hash")`);
  }
}
