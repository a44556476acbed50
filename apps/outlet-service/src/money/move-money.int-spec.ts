import { privateDatabase } from '@payments/testing';
import { DataSource } from 'typeorm';

import { database } from '../database/data-source';
import { moveMoneyFunction } from './move-money.sql';

/** The ledger's posting function in force is the one in move-money.sql.ts. */
describe('outlets.move_money in a migrated database', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, drop } = await privateDatabase(database));
  });
  afterAll(() => drop());

  it('is the text of ledger/move-money.sql.ts, beside only the positional call kept for the rollout', async () => {
    const functions = (await dataSource.query(
      `SELECT pg_get_function_identity_arguments(pg_proc.oid) AS arguments, prosrc, lanname AS language
       FROM pg_proc JOIN pg_language ON pg_language.oid = prolang
       WHERE proname = 'move_money' AND pronamespace = 'outlets'::regnamespace ORDER BY pronargs`,
    )) as { arguments: string; prosrc: string; language: string }[];
    const body = moveMoneyFunction.slice(moveMoneyFunction.indexOf('$$') + 2, moveMoneyFunction.lastIndexOf('$$'));
    expect(functions).toHaveLength(2);
    expect(functions[0]).toEqual({ arguments: 'p_move json', prosrc: body, language: 'plpgsql' });
    // The last release's signature, for its pods until the rollout replaces them: a call of the one above.
    expect(functions[1].language).toBe('sql');
    expect(functions[1].prosrc.trim()).toMatch(/^SELECT "outlets"\."move_money"\(json_build_object\(/);
  });

  it("answers the last release's positional call with the named function", async () => {
    const refusal = (query: string, parameters: unknown[]) =>
      dataSource.query(query, parameters).then(
        () => 'booked',
        (error: { message?: string }) => error.message,
      );
    const move = { business: 'biz-unknown', namespace: 'transfer', reference: 'ref-1', kind: 'transfer' };
    const named = await refusal('SELECT outlets.move_money($1)', [
      JSON.stringify({
        ...move,
        requestHash: 'h',
        source: 'w1',
        destination: 'w2',
        amount: '100',
        walletTypes: ['main'],
        entryId: 'e1',
        entryReference: 'ref-1',
        at: new Date(),
        result: {},
      }),
    ]);
    const positional = await refusal(
      'SELECT outlets.move_money($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)',
      [
        'biz-unknown',
        'transfer',
        'ref-2',
        'transfer',
        'h',
        'w1',
        'w2',
        '100',
        ['main'],
        'e2',
        'transfer',
        'ref-2',
        null,
        new Date(),
        '{}',
        null,
        null,
        '0',
        '0',
        null,
        null,
        null,
      ],
    );
    // A business with no wallets: both reach the rule's tenant check, past the claim.
    expect([named, positional]).toEqual(['INVALID_TENANT', 'INVALID_TENANT']);
  });
});
