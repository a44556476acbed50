import fc from 'fast-check';

import { testWallet } from '../testing/test-wallet';
import { chargeFor, PricePlan } from './price';
import { creditFigures, creditPostings } from './pricing.service';
import { Wallet } from './wallets.repository';

const plan = (overrides: Partial<PricePlan>): PricePlan => ({
  percentBps: 0,
  capKobo: null,
  floorKobo: 0n,
  flatKobo: 0n,
  commissionBps: 0,
  ...overrides,
});

const planArbitrary: fc.Arbitrary<PricePlan> = fc
  .record({
    percentBps: fc.integer({ min: 0, max: 10_000 }),
    cap: fc.option(fc.bigInt({ min: 0n, max: 1_000_000n })),
    floorKobo: fc.bigInt({ min: 0n, max: 50_000n }),
    flatKobo: fc.bigInt({ min: 0n, max: 50_000n }),
    commissionBps: fc.integer({ min: 0, max: 10_000 }),
  })
  .map(({ cap, ...rest }) => ({ ...rest, capKobo: cap === null ? null : cap + rest.floorKobo }));
const amountArbitrary = fc.bigInt({ min: 1n, max: 100_000_000_000n });

const wallet = () => testWallet(0n, { allowNegative: true });

describe('chargeFor', () => {
  it('rounds the percentage half-up to the kobo', () => {
    // 1.5% of 10,033 kobo is 150.495: 150; of 10,034 kobo, 150.51: 151; of 10,100, exactly 151.5: 152.
    const card = plan({ percentBps: 150 });
    expect([10_033n, 10_034n, 10_100n].map((amount) => chargeFor(card, amount).fee)).toEqual([150n, 151n, 152n]);
  });

  it('holds the percentage between floor and cap, then adds the flat fee', () => {
    const transfer = plan({ percentBps: 100, floorKobo: 1_000n, capKobo: 30_000n, flatKobo: 500n });
    expect(chargeFor(transfer, 50_000n).fee).toBe(1_500n); // 500 → floor 1,000, + 500 flat
    expect(chargeFor(transfer, 1_000_000n).fee).toBe(10_500n); // 10,000, + 500 flat
    expect(chargeFor(transfer, 10_000_000n).fee).toBe(30_500n); // 100,000 → cap 30,000, + 500 flat
  });

  it('never charges more than the amount', () => {
    expect(chargeFor(plan({ flatKobo: 1_000n }), 600n)).toEqual({ fee: 600n, commission: 0n });
  });

  it('gives the partner its share of the fee, rounded half-up', () => {
    // 1% of 123,450 is 1,234.5 → 1,235; a 20% commission of it is 247.
    expect(chargeFor(plan({ percentBps: 100, commissionBps: 2_000 }), 123_450n)).toEqual({
      fee: 1_235n,
      commission: 247n,
    });
  });

  it('for any amount and plan: whole kobo, amount = netAmount + fee, commission within the fee', () => {
    fc.assert(
      fc.property(planArbitrary, amountArbitrary, (price, amount) => {
        const charge = chargeFor(price, amount);
        const figures = creditFigures(amount, charge);
        expect(BigInt(figures.netAmount) + BigInt(figures.fee)).toBe(amount);
        expect(charge.fee >= 0n && charge.fee <= amount).toBe(true);
        expect(charge.commission >= 0n && charge.commission <= charge.fee).toBe(true);
        // The fee differs from the exact percentage by at most half a kobo, before floor, cap and flat fee apply.
        const exact = (amount * BigInt(price.percentBps) * 2n) / 10_000n;
        const clamped =
          price.floorKobo * 2n > exact ||
          (price.capKobo !== null && price.capKobo * 2n < exact) ||
          price.flatKobo > 0n ||
          charge.fee === amount;
        if (!clamped) expect(charge.fee * 2n - exact <= 1n && exact - charge.fee * 2n <= 1n).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('creditPostings', () => {
  it('for any amount and plan: one balanced entry, the fee split between revenue and the partner', () => {
    fc.assert(
      fc.property(planArbitrary, amountArbitrary, (price, amount) => {
        const [rail, destination, revenue, commission] = [wallet(), wallet(), wallet(), wallet()];
        const charge = chargeFor(price, amount);
        const postings = creditPostings(rail, destination, amount, charge, { revenue, commission });
        const byWallet = (target: Wallet) =>
          postings.filter((posting) => posting.wallet === target).reduce((sum, posting) => sum + posting.amount, 0n);
        expect(postings.reduce((sum, posting) => sum + posting.amount, 0n)).toBe(0n);
        expect(postings.every((posting) => posting.amount !== 0n)).toBe(true);
        expect([byWallet(rail), byWallet(destination), byWallet(revenue), byWallet(commission)]).toEqual([
          -amount,
          amount - charge.fee,
          charge.fee - charge.commission,
          charge.commission,
        ]);
      }),
      { numRuns: 2_000 },
    );
  });

  it('needs no fee wallets for a free payment, and refuses a fee without one', () => {
    const [rail, destination] = [wallet(), wallet()];
    expect(creditPostings(rail, destination, 500n, { fee: 0n, commission: 0n }, {})).toHaveLength(2);
    expect(() => creditPostings(rail, destination, 500n, { fee: 5n, commission: 0n }, {})).toThrow(/no wallet/);
  });
});
