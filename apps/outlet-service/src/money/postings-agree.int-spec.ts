import fc from 'fast-check';
import { ulid } from 'ulid';

import { OutletServiceFixture } from '../testing/outlet-service.fixture';
import { MoneyMovesRepository } from './money-moves.repository';
import { creditPostings, feeWalletsOf } from './pricing.service';
import { Wallet, WalletsRepository } from './wallets.repository';

jest.setTimeout(120_000);

/**
 * A credit is posted two ways: by outlets.move_money in SQL (card, POS, internal transfers) and
 * by creditPostings in TypeScript (bank transfers, QR payments and payouts). For any amount and charge,
 * both must write the same postings.
 */
describe('move_money and creditPostings', () => {
  let fixture: OutletServiceFixture;

  beforeAll(async () => {
    fixture = await OutletServiceFixture.start();
  });

  afterAll(() => fixture.close());

  it('post the same amounts to the same wallets for any amount, fee and commission', async () => {
    const businessId = await fixture.business();
    const outlet = await fixture.outlet(businessId);
    const system = await fixture.app.get(WalletsRepository).systemWalletIds(fixture.dataSource.manager, businessId);
    const moves = fixture.app.get(MoneyMovesRepository);
    const wallet = (id: string) => ({ id }) as Wallet;
    const destination = outlet.collectionWallet.walletId;

    const credit = fc
      .record({
        amount: fc.bigInt({ min: 1n, max: 10n ** 12n }),
        feeShare: fc.double({ min: 0, max: 1, noNaN: true }),
        commissionShare: fc.double({ min: 0, max: 1, noNaN: true }),
      })
      .map(({ amount, feeShare, commissionShare }) => {
        const fee = BigInt(Math.floor(Number(amount) * feeShare));
        return { amount, charge: { fee, commission: BigInt(Math.floor(Number(fee) * commissionShare)) } };
      });
    await fc.assert(
      fc.asyncProperty(credit, async ({ amount, charge }) => {
        const entryId = ulid();
        const feeWallets = feeWalletsOf(charge, system);
        await moves.move({
          businessId,
          key: { namespace: 'pos', reference: entryId },
          kind: 'pos',
          request: { entryId },
          source: system.rail,
          destination,
          amount,
          walletTypes: ['rail', 'collection'],
          entryId,
          entryReference: entryId,
          narration: null,
          at: new Date(),
          result: {},
          event: null,
          charge,
          feeWallets,
        });
        const written = (await fixture.dataSource.query(
          'SELECT wallet_id, amount FROM outlets.postings WHERE entry_id = $1',
          [entryId],
        )) as { wallet_id: string; amount: string }[];
        const described = creditPostings(wallet(system.rail), wallet(destination), amount, charge, {
          revenue: feeWallets.revenue ? wallet(feeWallets.revenue) : undefined,
          commission: feeWallets.commission ? wallet(feeWallets.commission) : undefined,
        });
        const sorted = (postings: { wallet: string; amount: string }[]) =>
          postings.map(({ wallet, amount }) => `${wallet} ${amount}`).sort();
        expect(sorted(written.map((row) => ({ wallet: row.wallet_id, amount: row.amount })))).toEqual(
          sorted(described.map((posting) => ({ wallet: posting.wallet.id, amount: posting.amount.toString() }))),
        );
      }),
      { numRuns: 200 },
    );
  });
});
