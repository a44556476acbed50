import { moveMoneyDigest, moveMoneyTextDigest } from '../database/migrations/1763769600043-move-money-named';
import { moveMoneyFunction } from './move-money.sql';

describe('ledger/move-money.sql.ts', () => {
  it('is the text the latest migration that loads it was written for', () => {
    // A change to the rule needs a migration that loads it: databases already migrated never see the file.
    expect(moveMoneyTextDigest(moveMoneyFunction)).toBe(moveMoneyDigest);
  });
});
