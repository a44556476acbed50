import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outletId filter finds every transaction of an outlet's wallets, and the list is ordered by
 * createdAt. An internal transfer names both its wallets' outlets in its event now: the row's
 * outlet_id is its destination's (or its source's, when the destination is no outlet's), and
 * source_outlet_id its source's, so either outlet's filter finds it. Payouts name their deposit
 * wallet's outlet.
 *
 * Rows recorded before: a payout's account is its deposit wallet's account number, a transfer's
 * its destination's, and the history knows the outlet of an account that was paid into (a
 * collection or deposit) or swept from: those get it. A transfer's source is not in its row, so
 * an old transfer stays found by its destination's outlet only; the rest keep none.
 *
 * The list and its export now read transactions_business_created_idx (business, createdAt,
 * arrival) both ways; the index on arrival alone has no reader left.
 */
export class TransactionOutlets1763769600059 implements MigrationInterface {
  name = 'TransactionOutlets1763769600059';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "gateway"."transactions" ADD COLUMN "source_outlet_id" text`,
      `UPDATE "gateway"."transactions" t SET "outlet_id" = known."outlet_id"
        FROM (
          SELECT DISTINCT ON ("business_id", "account") "business_id", "account", "outlet_id"
          FROM "gateway"."transactions"
          WHERE "outlet_id" IS NOT NULL AND "product_type" IN ('collection', 'deposit', 'sweep')
          ORDER BY "business_id", "account", "id"
        ) known
        WHERE t."outlet_id" IS NULL AND t."product_type" IN ('payout', 'internal_transfer')
          AND known."business_id" = t."business_id" AND known."account" = t."account"`,
      `DROP INDEX "gateway"."transactions_business_idx"`,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    // Outlets filled in stay: they are true of those rows whichever code reads them.
    await runner.query(
      `CREATE INDEX "transactions_business_idx" ON "gateway"."transactions" ("business_id", "id" DESC)`,
    );
    await runner.query(`ALTER TABLE "gateway"."transactions" DROP COLUMN "source_outlet_id"`);
  }
}
