import { MigrationInterface, QueryRunner } from 'typeorm';

export class Terminals1763769600008 implements MigrationInterface {
  name = 'Terminals1763769600008';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      // One row per business: its POS key, sealed by the gateway.
      `CREATE TABLE "pos_ingest"."integrators" (
        "business_id" text PRIMARY KEY,
        "mode" text NOT NULL CONSTRAINT "integrators_mode_check" CHECK ("mode" IN ('test', 'live')),
        "pos_key_sealed" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE "pos_ingest"."terminals" (
        "serial_number" text PRIMARY KEY,
        "business_id" text NOT NULL REFERENCES "pos_ingest"."integrators" ("business_id"),
        "outlet_id" text,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`,
      // Accepted submissions, by a keyed hash of (serial, sequence, amount, card): a resubmission
      // within 24 hours gets the first reference back. No card data is stored.
      `CREATE TABLE "pos_ingest"."submissions" (
        "dedupe_key" text PRIMARY KEY,
        "reference" text NOT NULL CONSTRAINT "submissions_reference_key" UNIQUE,
        "serial_number" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['submissions', 'terminals', 'integrators']) {
      await runner.query(`DROP TABLE "pos_ingest"."${table}"`);
    }
  }
}
