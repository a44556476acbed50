import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A transaction in the history is one reference within one kind: a partner's own transfer may
 * be named like a refund (RFD-…) or a checkout of ours, and must never update or hide that
 * row. The kind is the product type, except that every refund.* event is a refund, whatever
 * product it names (money a card captured after its checkout ended is announced as `card`).
 * Rows already merged by the old key stay as they are: nothing left says what they were.
 */
export class TransactionKinds1763769600041 implements MigrationInterface {
  name = 'TransactionKinds1763769600041';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "gateway"."transactions" ADD COLUMN "kind" text`,
      `UPDATE "gateway"."transactions" SET "kind" = CASE WHEN "event" LIKE 'refund.%' THEN 'refund' ELSE "product_type" END`,
      `ALTER TABLE "gateway"."transactions" ALTER COLUMN "kind" SET NOT NULL`,
      `ALTER TABLE "gateway"."transactions" DROP CONSTRAINT "transactions_reference_key"`,
      `ALTER TABLE "gateway"."transactions" ADD CONSTRAINT "transactions_reference_key" UNIQUE ("business_id", "kind", "reference")`,
      // The reference filter and GET /transactions/{reference} name no kind.
      `CREATE INDEX "transactions_business_reference_idx" ON "gateway"."transactions" ("business_id", "reference")`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "gateway"."transactions_business_reference_idx"`,
      `ALTER TABLE "gateway"."transactions" DROP CONSTRAINT "transactions_reference_key"`,
      // Of references shared across kinds, the row that arrived first stays.
      `DELETE FROM "gateway"."transactions" t USING "gateway"."transactions" earlier
        WHERE earlier."business_id" = t."business_id" AND earlier."reference" = t."reference" AND earlier."id" < t."id"`,
      `ALTER TABLE "gateway"."transactions" ADD CONSTRAINT "transactions_reference_key" UNIQUE ("business_id", "reference")`,
      `ALTER TABLE "gateway"."transactions" DROP COLUMN "kind"`,
    ];
    for (const statement of statements) await runner.query(statement);
  }
}
