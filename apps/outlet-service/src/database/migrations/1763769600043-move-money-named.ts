import { createHash } from 'node:crypto';

import { MigrationInterface, QueryRunner } from 'typeorm';

import { moveMoneyFunction } from '../../money/move-money.sql';
import { moveMoneyFunction041 } from './1763769600041-outcome-charges';

/** The digest of ledger/move-money.sql.ts this migration loads: the text must not change under it. */
export const moveMoneyDigest = '14f6c800d0693ff8ae67001c8ab65ae917f255d91dff3ab5d425116d3e42f001';

export const moveMoneyTextDigest = (text: string) => createHash('sha256').update(text).digest('hex');

const positionalArguments =
  'text, text, text, text, text, text, text, bigint, text[], text, text, text, text, timestamptz, json, json, json, bigint, bigint, text, text, timestamptz';

/**
 * outlets.move_money takes the move as one named JSON object instead of 22 positional
 * arguments, from ledger/move-money.sql.ts. The positional signature stays for this release
 * only, as a call of the new one, so pods of the last release keep posting until the rollout
 * replaces them (the rule has one body either way); the next migration drops it.
 */
export class MoveMoneyNamed1763769600043 implements MigrationInterface {
  name = 'MoveMoneyNamed1763769600043';

  async up(runner: QueryRunner): Promise<void> {
    if (moveMoneyTextDigest(moveMoneyFunction) !== moveMoneyDigest) {
      throw new Error(
        'ledger/move-money.sql.ts changed after migration 043 loaded it: freeze its text here and load the file in a new migration',
      );
    }
    await runner.query(moveMoneyFunction);
    await runner.query(`CREATE OR REPLACE FUNCTION "outlets"."move_money"(
  p_business text, p_namespace text, p_reference text, p_kind text, p_request_hash text,
  p_source text, p_destination text, p_amount bigint, p_wallet_types text[],
  p_entry_id text, p_entry_kind text, p_entry_reference text, p_narration text, p_at timestamptz,
  p_result json, p_outbox json, p_outcome json,
  p_fee bigint, p_commission bigint, p_revenue text, p_commission_wallet text, p_deadline timestamptz
) RETURNS json LANGUAGE sql AS $$
  SELECT "outlets"."move_money"(json_build_object(
    'business', p_business, 'namespace', p_namespace, 'reference', p_reference, 'kind', p_kind,
    'requestHash', p_request_hash, 'source', p_source, 'destination', p_destination,
    'amount', p_amount, 'walletTypes', p_wallet_types, 'entryId', p_entry_id, 'entryKind', p_entry_kind,
    'entryReference', p_entry_reference, 'narration', p_narration, 'at', p_at, 'result', p_result,
    'outbox', p_outbox, 'outcome', p_outcome, 'fee', p_fee, 'commission', p_commission,
    'revenueWallet', p_revenue, 'commissionWallet', p_commission_wallet, 'deadline', p_deadline))
$$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION "outlets"."move_money"(json)`);
    await runner.query(`DROP FUNCTION "outlets"."move_money"(${positionalArguments})`);
    await runner.query(moveMoneyFunction041);
  }
}
