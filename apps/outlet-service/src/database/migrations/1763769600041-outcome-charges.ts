import { MigrationInterface, QueryRunner } from 'typeorm';

import { moveMoneyFunction } from '../../ledger/move-money.sql';
import { MoneyCommandDeadline1763769600036 } from './1763769600036-money-command-deadline';

const moveMoneyArguments =
  'text, text, text, text, text, text, text, bigint, text[], text, text, text, text, timestamptz, json, json, json, bigint, bigint, text';

/**
 * A paid checkout's outcome keeps the charge its payment booked, so the outcome answered to a
 * second payment or a late closing states the same fee as the first; move_money stores it
 * with the outcome it decides. Outcomes decided before this release get theirs from their
 * journal entry: the rail posting is the amount, and of the settlement postings the first one
 * written is what the wallet received and a second one the commission. The move_money
 * overload without a deadline, kept for the rollout of migration 036, is dropped.
 */
export class OutcomeCharges1763769600041 implements MigrationInterface {
  name = 'OutcomeCharges1763769600041';

  async up(runner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "outlets"."checkout_outcomes" ADD COLUMN "fee" bigint, ADD COLUMN "commission" bigint, ADD COLUMN "net_amount" bigint`,
      `UPDATE "outlets"."checkout_outcomes" o SET "fee" = booked."amount" - booked."net", "commission" = booked."commission", "net_amount" = booked."net"
        FROM (
          SELECT e."business_id", e."reference",
            -sum(p."amount") FILTER (WHERE w."type" = 'rail') AS "amount",
            coalesce((array_agg(p."amount" ORDER BY p."id") FILTER (WHERE w."type" = 'settlement'))[1], 0) AS "net",
            coalesce((array_agg(p."amount" ORDER BY p."id") FILTER (WHERE w."type" = 'settlement'))[2], 0) AS "commission"
          FROM "outlets"."journal_entries" e
          JOIN "outlets"."postings" p ON p."entry_id" = e."id"
          JOIN "outlets"."wallets" w ON w."id" = p."wallet_id"
          WHERE e."kind" = 'checkout'
          GROUP BY e."id", e."business_id", e."reference"
        ) booked
        WHERE o."status" = 'SUCCESS' AND booked."business_id" = o."business_id" AND booked."reference" = o."checkout_reference"`,
      `ALTER TABLE "outlets"."checkout_outcomes" ADD CONSTRAINT "checkout_outcomes_charge_check"
        CHECK ("fee" IS NULL OR ("commission" BETWEEN 0 AND "fee" AND "net_amount" >= 0))`,
      `DROP FUNCTION IF EXISTS "outlets"."move_money"(${moveMoneyArguments}, text)`,
      moveMoneyFunction,
    ];
    for (const statement of statements) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION "outlets"."move_money"(${moveMoneyArguments}, text, timestamptz)`);
    await new MoneyCommandDeadline1763769600036().up(runner);
    await runner.query(
      `ALTER TABLE "outlets"."checkout_outcomes" DROP CONSTRAINT "checkout_outcomes_charge_check", DROP COLUMN "fee", DROP COLUMN "commission", DROP COLUMN "net_amount"`,
    );
  }
}
