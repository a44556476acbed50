import fc from 'fast-check';
import { EntityManager } from 'typeorm';

import { testWallet } from '../testing/test-wallet';
import { JournalRepository, NewJournalEntry } from './journal.repository';
import { LedgerService, Posting } from './ledger.service';

class FakeJournal {
  readonly entries: NewJournalEntry[] = [];
  async insert(_em: EntityManager, entry: NewJournalEntry): Promise<Date> {
    this.entries.push(entry);
    return new Date('2026-01-01T00:00:00Z');
  }
}

const em = {} as EntityManager;
const wallet = testWallet;

function setup() {
  const journal = new FakeJournal();
  const ledger = new LedgerService(journal as unknown as JournalRepository);
  const post = (postings: Posting[]) =>
    ledger.post(em, { businessId: 'biz-1', kind: 'transfer', reference: 'T-1', postings });
  return { journal, post };
}

describe('LedgerService', () => {
  it('writes a balanced entry and moves the balances it was given', async () => {
    const { journal, post } = setup();
    const [from, to] = [wallet(5_000n), wallet(0n)];
    const entry = await post([
      { wallet: from, amount: -3_000n },
      { wallet: to, amount: 3_000n },
    ]);
    expect(journal.entries).toEqual([
      expect.objectContaining({
        id: entry.id,
        postings: [
          { walletId: from.id, amount: -3_000n },
          { walletId: to.id, amount: 3_000n },
        ],
      }),
    ]);
    expect([from.ledgerBalance, to.ledgerBalance]).toEqual([2_000n, 3_000n]);
  });

  it('refuses an entry that does not sum to zero, or carries a zero posting, before writing', async () => {
    const { journal, post } = setup();
    const [from, to] = [wallet(5_000n), wallet(0n)];
    await expect(
      post([
        { wallet: from, amount: -3_000n },
        { wallet: to, amount: 2_999n },
      ]),
    ).rejects.toThrow(/unbalanced/);
    await expect(
      post([
        { wallet: from, amount: 0n },
        { wallet: to, amount: 0n },
      ]),
    ).rejects.toThrow(/unbalanced/);
    expect(journal.entries).toHaveLength(0);
    expect(from.ledgerBalance).toBe(5_000n);
  });

  it('refuses to take a wallet below zero available, counting what is held', async () => {
    const { journal, post } = setup();
    const [from, to] = [wallet(5_000n, { held: 2_001n }), wallet(0n)];
    await expect(
      post([
        { wallet: from, amount: -3_000n },
        { wallet: to, amount: 3_000n },
      ]),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(journal.entries).toHaveLength(0);
  });

  it('lets a wallet that may go negative (the rail, suspense) pay out more than it holds', async () => {
    const { post } = setup();
    const [rail, to] = [wallet(0n, { allowNegative: true }), wallet(0n)];
    await post([
      { wallet: rail, amount: -7_500n },
      { wallet: to, amount: 7_500n },
    ]);
    expect(rail.ledgerBalance).toBe(-7_500n);
  });

  it('for any amounts, either writes an entry that sums to zero or refuses it and changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        async (balance, amount) => {
          const { journal, post } = setup();
          const [from, to] = [wallet(balance), wallet(0n)];
          const outcome = await post([
            { wallet: from, amount: -amount },
            { wallet: to, amount },
          ]).catch((error: { code?: string }) => error.code);
          if (amount > balance) {
            expect(outcome).toBe('INSUFFICIENT_FUNDS');
            expect(journal.entries).toHaveLength(0);
            expect(from.ledgerBalance).toBe(balance);
          } else {
            const sum = journal.entries[0].postings.reduce((total, posting) => total + posting.amount, 0n);
            expect(sum).toBe(0n);
            expect(from.ledgerBalance + to.ledgerBalance).toBe(balance);
          }
        },
      ),
    );
  });
});
