import { randomUUID } from 'node:crypto';

import { OutletCommand, OutletResponse, PosTransactionDecidedV1Payload } from '@payments/contracts';
import { singleRow } from '@payments/platform-database';
import fc from 'fast-check';
import { ulid } from 'ulid';

import { PosCreditUseCase } from '../pos/pos-credit.usecase';
import { OutletServiceFixture } from '../testing/outlet-service.fixture';
import { PayoutSettler } from '../transfers/payout-settler';
import { chargeFor, PricePlan, products } from './price';
import { PricePlansRepository } from './price-plans.repository';

const maskedCard = '539983******1234';

jest.setTimeout(300_000);

type EventData = Record<string, string> & { details?: Record<string, unknown> };

/** Every payment is priced by the plan in force, and the fee is booked in the payment's own entry. */
describe('pricing in the ledger', () => {
  let fixture: OutletServiceFixture;

  beforeAll(async () => {
    fixture = await OutletServiceFixture.start({ stopped: [PayoutSettler] });
  });
  afterAll(() => fixture.close());

  async function ok<T>(command: OutletCommand): Promise<T> {
    const reply = await fixture.command<T>(command);
    if (!reply.ok) throw new Error(`${command.type} failed: ${reply.error.code} ${reply.error.message}`);
    return reply.data;
  }

  const balanceOf = async (businessId: string, type: string): Promise<bigint> => {
    const row = await singleRow<{ ledger_balance: string }>(
      fixture.dataSource,
      `SELECT ledger_balance FROM outlets.wallets WHERE business_id = $1 AND type = $2`,
      [businessId, type],
    );
    return BigInt(row.ledger_balance);
  };

  const moneyEvents = async (businessId: string) =>
    (await fixture.partnerEvents(businessId)).filter((event) => event.event !== 'outlet.created') as {
      event: string;
      eventData: EventData;
    }[];

  /** A payout of `amount` kobo from the outlet's deposit wallet, to a beneficiary the sandbox pays. */
  const payoutCommand = (businessId: string, outlet: OutletResponse, amount: string): OutletCommand => ({
    type: 'bankTransfer',
    businessId,
    request: {
      reference: `PAY-${ulid()}`,
      amount,
      sourceWalletId: outlet.depositWallet.walletId,
      bankCode: '058',
      accountNumber: '0690000031',
      accountName: 'Beneficiary',
    },
  });

  /** The charges of the business's paid checkouts, as their outcomes tell the gateway, oldest first. */
  const checkoutCharges = async (businessId: string) =>
    (
      (await fixture.dataSource.query(
        `SELECT payload->'payload'->'charge' AS charge FROM outlets.outbox
         WHERE topic = 'checkout.payments.v1' AND message_key = $1 ORDER BY sequence`,
        [businessId],
      )) as { charge: Record<string, string> }[]
    ).map((row) => row.charge);

  /** One payment of each priced kind: a card and a QR checkout, a transfer in, a POS credit and a payout. */
  async function payEveryWay(businessId: string, outlet: OutletResponse, amounts: bigint[]): Promise<void> {
    const [card, qr, transfer, pos, payout] = amounts.map(String);
    const checkout = () => ({ type: 'settleCheckoutPayment', businessId, checkoutReference: `CHK-${ulid()}` }) as const;
    await ok({ ...checkout(), paymentId: ulid(), amount: card, method: 'card', maskedCard });
    await ok({ ...checkout(), paymentId: ulid(), amount: qr, method: 'qr-wallet' });
    await ok({
      type: 'creditVirtualAccount',
      businessId,
      accountNumber: outlet.depositWallet.accountNumber,
      sessionId: ulid(),
      request: { amount: transfer },
    });
    const decision: PosTransactionDecidedV1Payload = {
      businessId,
      reference: `POS-${ulid()}`,
      serialNumber: 'PRICING-1',
      outletId: outlet.outletId,
      amount: pos,
      maskedPan: maskedCard,
      approved: true,
      declineReason: null,
      decidedAt: new Date().toISOString(),
    };
    await fixture.get(PosCreditUseCase).apply(randomUUID(), decision);
    // The payout comes out of what the transfer in brought, so it fits whatever the plan took.
    const available = (await fixture.balances(outlet.depositWallet.walletId)).available;
    const payoutAmount = BigInt(payout) > available ? available : BigInt(payout);
    const payoutFee = chargeFor(await currentPlan(businessId, 'payout'), payoutAmount).fee;
    if (payoutAmount > payoutFee) {
      await ok(payoutCommand(businessId, outlet, payoutAmount.toString()));
    }
    await fixture.settleRail('payouts', businessId);
  }

  async function currentPlan(businessId: string, product: (typeof products)[number]): Promise<PricePlan> {
    return fixture.get(PricePlansRepository).current(fixture.dataSource.manager, businessId, product);
  }

  const planArbitrary: fc.Arbitrary<PricePlan> = fc.record({
    percentBps: fc.integer({ min: 0, max: 1_000 }),
    capKobo: fc.option(fc.bigInt({ min: 5_000n, max: 300_000n })),
    floorKobo: fc.bigInt({ min: 0n, max: 5_000n }),
    flatKobo: fc.bigInt({ min: 0n, max: 10_000n }),
    commissionBps: fc.integer({ min: 0, max: 10_000 }),
  });

  it('for any amounts and plan: amount = netAmount + fee in every event, and the ledger balances', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        planArbitrary,
        fc.array(fc.bigInt({ min: 1n, max: 50_000_000n }), { minLength: 5, maxLength: 5 }),
        async (plan, amounts) => {
          runs += 1;
          const businessId = await fixture.business();
          await fixture.setPlan(businessId, products, plan);
          const outlet = await fixture.outlet(businessId);
          await payEveryWay(businessId, outlet, amounts);

          // Partner events carry the figures; a checkout's charge travels in its outcome to the gateway.
          const charged = (await moneyEvents(businessId)).map(({ eventData }) => eventData);
          const outcomes = await checkoutCharges(businessId);
          expect(outcomes.map((charge) => BigInt(charge.netAmount) + BigInt(charge.fee))).toEqual(amounts.slice(0, 2));
          const all: Record<string, string>[] = [
            ...charged,
            ...outcomes.map((charge, index) => ({ ...charge, amount: String(amounts[index]) })),
          ];
          expect(all.length).toBeGreaterThanOrEqual(4);
          let fees = 0n;
          let commissions = 0n;
          for (const figures of all) {
            const [amount, net, fee, commission] = [
              figures.amount,
              figures.netAmount,
              figures.fee,
              figures.commission,
            ].map(BigInt);
            expect(amount).toBe(net + fee);
            expect(chargeFor(plan, amount)).toEqual({ fee, commission });
            fees += fee;
            commissions += commission;
          }
          expect(await balanceOf(businessId, 'revenue')).toBe(fees - commissions);
          expect(await fixture.unbalancedEntries(businessId)).toEqual([]);
          // Every fee is in the entry of its payment: no entry books a fee alone.
          const feeOnlyEntries = (await fixture.dataSource.query(
            `SELECT e.id FROM outlets.journal_entries e JOIN outlets.postings p ON p.entry_id = e.id
             JOIN outlets.wallets w ON w.id = p.wallet_id WHERE e.business_id = $1
             GROUP BY e.id HAVING bool_and(w.type IN ('revenue', 'settlement'))`,
            [businessId],
          )) as unknown[];
          expect(feeOnlyEntries).toEqual([]);
        },
      ),
      { numRuns: 12 },
    );
    expect(runs).toBe(12);
  });

  it('charges a new business the default plan, and the settlement wallet its commission', async () => {
    const businessId = await fixture.business('test', ulid(), 'default');
    const outlet = await fixture.outlet(businessId);
    await payEveryWay(businessId, outlet, [1_000_000n, 1_000_000n, 20_000_000n, 1_000_000n, 1_000_000n]);
    // Card 1.5%; QR 1%; transfer in 1% capped at ₦300; POS 0.5%; a payout ₦10.
    expect(await moneyEvents(businessId)).toMatchObject([
      { event: 'fundAccount.success', eventData: { productType: 'deposit', fee: '30000' } },
      { event: 'fundAccount.success', eventData: { productType: 'pos', fee: '5000' } },
      { event: 'bankTransfer.success', eventData: { productType: 'payout', fee: '1000' } },
    ]);
    // Checkout payments tell the gateway their charge; it sends checkout.success with it.
    expect(await checkoutCharges(businessId)).toEqual([
      { fee: '15000', commission: '0', netAmount: '985000' },
      { fee: '10000', commission: '0', netAmount: '990000' },
    ]);
    expect(await balanceOf(businessId, 'revenue')).toBe(15_000n + 10_000n + 30_000n + 5_000n + 1_000n);
  });

  it('applies a new plan to new payments only, and settles a payout at the fee it was quoted', async () => {
    const businessId = await fixture.business();
    const outlet = await fixture.outlet(businessId);
    const fund = (amount: string) =>
      ok({
        type: 'creditVirtualAccount',
        businessId,
        accountNumber: outlet.depositWallet.accountNumber,
        sessionId: ulid(),
        request: { amount },
      });
    await fund('100000');
    await ok(payoutCommand(businessId, outlet, '50000'));
    await fixture.setPlan(businessId, ['transfer', 'payout'], {
      percentBps: 200,
      capKobo: null,
      floorKobo: 0n,
      flatKobo: 100n,
      commissionBps: 5_000,
    });
    await fund('100000');
    await fixture.settleRail('payouts', businessId);
    expect((await moneyEvents(businessId)).map(({ eventData }) => eventData)).toMatchObject([
      { productType: 'deposit', fee: '0', commission: '0' },
      { productType: 'deposit', fee: '2100', commission: '1050' },
      { productType: 'payout', fee: '0', commission: '0' },
    ]);
    expect(await balanceOf(businessId, 'revenue')).toBe(1_050n);
    expect(await balanceOf(businessId, 'settlement')).toBe(1_050n);
    expect((await fixture.balances(outlet.depositWallet.walletId)).ledger).toBe(100_000n + 97_900n - 50_000n);
  });

  it('refuses a payout that its fee would swallow', async () => {
    const businessId = await fixture.business();
    const outlet = await fixture.outlet(businessId);
    await fixture.setPlan(businessId, ['payout'], {
      percentBps: 0,
      capKobo: null,
      floorKobo: 0n,
      flatKobo: 1_000n,
      commissionBps: 0,
    });
    await fixture.fund(outlet.depositWallet.accountNumber, 5_000n);
    const reply = await fixture.command(payoutCommand(businessId, outlet, '1000'));
    expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_TRANSFER' } });
    expect((await fixture.balances(outlet.depositWallet.walletId)).available).toBe(5_000n);
  });
});
