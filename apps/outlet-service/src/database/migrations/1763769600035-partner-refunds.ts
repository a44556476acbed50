import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds a partner asks for. Their amount is held on the wallet the payment reached from the
 * moment they are accepted (`held`), and the sandbox rail settles them after `settle_after`:
 * posting the money back to the rail, or releasing the hold. Refunds of money a card captured
 * after its checkout ended (kept in the suspense wallet) have no settle_after: an operator
 * settles those.
 */
export class PartnerRefunds1763769600035 implements MigrationInterface {
  name = 'PartnerRefunds1763769600035';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "outlets"."refunds" ADD COLUMN "held" boolean NOT NULL DEFAULT false`,
      `ALTER TABLE "outlets"."refunds" ADD COLUMN "product_type" text`,
      `ALTER TABLE "outlets"."refunds" ADD COLUMN "settle_after" timestamptz`,
      `ALTER TABLE "outlets"."refunds" ADD COLUMN "settled_at" timestamptz`,
      `ALTER TABLE "outlets"."refunds" ADD COLUMN "journal_entry_id" text REFERENCES "outlets"."journal_entries" ("id")`,
      `CREATE INDEX "refunds_due_idx" ON "outlets"."refunds" ("settle_after") WHERE "status" = 'PENDING' AND "settle_after" IS NOT NULL`,
      `CREATE INDEX "refunds_transaction_idx" ON "outlets"."refunds" ("business_id", "transaction_reference")`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "outlets"."refunds_transaction_idx"`,
      `DROP INDEX "outlets"."refunds_due_idx"`,
      ...['journal_entry_id', 'settled_at', 'settle_after', 'product_type', 'held'].map(
        (column) => `ALTER TABLE "outlets"."refunds" DROP COLUMN "${column}"`,
      ),
    ];
    for (const statement of statements) await runner.query(statement);
  }
}
