import { privateDatabase } from '@payments/testing';
import { DataSource } from 'typeorm';

import { database } from '../database/data-source';
import { moveMoneyFunction } from './move-money.sql';

/** The ledger's posting function in force is the one in move-money.sql.ts, and the only one. */
describe('outlets.move_money in a migrated database', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, drop } = await privateDatabase(database));
  });
  afterAll(() => drop());

  it('is the text of ledger/move-money.sql.ts, with no older overload left beside it', async () => {
    const functions = (await dataSource.query(
      `SELECT prosrc FROM pg_proc WHERE proname = 'move_money' AND pronamespace = 'outlets'::regnamespace`,
    )) as { prosrc: string }[];
    const body = moveMoneyFunction.slice(moveMoneyFunction.indexOf('$$') + 2, moveMoneyFunction.lastIndexOf('$$'));
    expect(functions).toHaveLength(1);
    expect(functions[0].prosrc).toBe(body);
  });
});
