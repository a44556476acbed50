import { randomUUID } from 'node:crypto';

import {
  CardRefundDecidedV1,
  CardRefundRequestedV1Payload,
  OutletCommand,
  OutletResponse,
  RefundResponse,
  Topics,
} from '@payments/contracts';
import { testEvent } from '@payments/testing';
import fc from 'fast-check';
import { ulid } from 'ulid';

import { PosCreditUseCase } from '../pos/pos-credit.usecase';
import { OutletServiceFixture } from '../testing/outlet-service.fixture';
import { PayoutSettler } from '../transfers/payout-settler';
import { CardRefundOutcomesConsumer } from './card-refund-outcomes.consumer';
import { RefundSettler } from './refund-settler';

jest.setTimeout(300_000);

/** Refunds hold money at once, never take back more than was paid, and settle once. */
describe('refunds in the ledger', () => {
  let fixture: OutletServiceFixture;

  beforeAll(async () => {
    // Settlements run only when a test says so.
    fixture = await OutletServiceFixture.start({ stopped: [RefundSettler, PayoutSettler] });
  });
  afterAll(() => fixture.close());

  const send = <T>(command: OutletCommand) => fixture.command<T>(command);
  const refund = (
    businessId: string,
    request: { transactionReference: string; amount?: string; reason?: string },
    key = ulid(),
  ) => send<RefundResponse>({ type: 'createRefund', businessId, request, idempotencyKey: key });

  /** A checkout paid from a QR wallet (the sandbox rail pays its refunds back), or by card. */
  async function paidCheckout(businessId: string, amount: string, method: 'qr-wallet' | 'card' = 'qr-wallet') {
    const checkoutReference = `CHK-${ulid()}`;
    const reply = await send({
      type: 'settleCheckoutPayment',
      businessId,
      checkoutReference,
      amount,
      method,
      paymentId: ulid(),
      ...(method === 'card' ? { maskedCard: '539983******1234' } : {}),
    });
    expect(reply.ok).toBe(true);
    return checkoutReference;
  }

  async function posPayment(businessId: string, outlet: OutletResponse, amount: string): Promise<string> {
    const reference = `POS-${ulid()}`;
    await fixture.get(PosCreditUseCase).apply(randomUUID(), {
      businessId,
      reference,
      serialNumber: 'REFUND-1',
      outletId: outlet.outletId,
      amount,
      maskedPan: '539983******1234',
      approved: true,
      declineReason: null,
      decidedAt: new Date().toISOString(),
    });
    return reference;
  }

  const settlementOf = async (businessId: string) =>
    (
      (await fixture.dataSource.query(`SELECT id FROM outlets.wallets WHERE business_id = $1 AND type = 'settlement'`, [
        businessId,
      ])) as { id: string }[]
    )[0].id;

  const settleAll = (businessId: string) => fixture.settleRail('refunds', businessId);

  it('holds a partial refund at once, and posts it back to the rail when the rail pays it', async () => {
    const businessId = await fixture.business();
    const checkout = await paidCheckout(businessId, '100000');
    const settlement = await settlementOf(businessId);
    const answer = await refund(businessId, { transactionReference: checkout, amount: '30000', reason: 'Damaged' });
    expect(answer).toMatchObject({
      ok: true,
      data: { transactionReference: checkout, productType: 'checkout', amount: '30000', status: 'PENDING' },
    });
    expect(await fixture.balances(settlement)).toEqual({ ledger: 100_000n, available: 70_000n });
    await settleAll(businessId);
    expect(await fixture.balances(settlement)).toEqual({ ledger: 70_000n, available: 70_000n });
    const reference = answer.ok ? answer.data.reference : '';
    expect(await send({ type: 'getRefund', businessId, reference })).toMatchObject({
      ok: true,
      data: { reference, status: 'PROCESSED' },
    });
    const events = (await fixture.partnerEvents(businessId)).filter((event) => event.event.startsWith('refund.'));
    expect(events.map(({ event, eventData }) => [event, eventData.transactionStatus, eventData.amount])).toEqual([
      ['refund.pending', 'PROCESSING', '30000'],
      ['refund.processed', 'SUCCESS', '30000'],
    ]);
  });

  /** What outlet-service asked card-processor to pay back to cards, oldest first. */
  const cardRefundRequests = async (businessId: string) =>
    (await fixture.outboxRows(Topics.cardRefunds.name, businessId)).map(
      (row) => row.payload.payload as unknown as CardRefundRequestedV1Payload,
    );
  const cardNetworkAnswers = (businessId: string, refundReference: string, approved: boolean) =>
    fixture.get(CardRefundOutcomesConsumer).handle(
      testEvent(CardRefundDecidedV1, {
        businessId,
        refundReference,
        approved,
        declineReason: approved ? null : 'Declined by the card network (code 25)',
        decidedAt: new Date().toISOString(),
      }),
    );

  it('sends a refund of a card payment to the card network, and settles it by the network’s answer, once', async () => {
    const businessId = await fixture.business();
    const checkout = await paidCheckout(businessId, '100000', 'card');
    const settlement = await settlementOf(businessId);
    const answer = await refund(businessId, { transactionReference: checkout, amount: '40000', reason: 'decline' });
    const reference = answer.ok ? answer.data.reference : '';
    await settleAll(businessId);
    // With the card network, not the rail: the reason does not decide it, and the hold stays.
    expect(await cardRefundRequests(businessId)).toEqual([
      expect.objectContaining({
        refundReference: reference,
        paymentKind: 'checkout',
        paymentReference: checkout,
        amount: '40000',
      }),
    ]);
    expect(await fixture.balances(settlement)).toEqual({ ledger: 100_000n, available: 60_000n });
    await settleAll(businessId);
    expect(await cardRefundRequests(businessId)).toHaveLength(1);

    await Promise.all([
      cardNetworkAnswers(businessId, reference, true),
      cardNetworkAnswers(businessId, reference, true),
    ]);
    await cardNetworkAnswers(businessId, reference, false);
    expect(await fixture.balances(settlement)).toEqual({ ledger: 60_000n, available: 60_000n });
    expect(await send({ type: 'getRefund', businessId, reference })).toMatchObject({
      ok: true,
      data: { status: 'PROCESSED' },
    });
    const events = (await fixture.partnerEvents(businessId)).filter((event) => event.event.startsWith('refund.'));
    expect(events.map(({ event }) => event)).toEqual(['refund.pending', 'refund.processed']);
  });

  it('refunds a POS payment through the card network; a declined refund releases its hold', async () => {
    const businessId = await fixture.business();
    const outlet = await fixture.outlet(businessId);
    const pos = await posPayment(businessId, outlet, '50000');
    const declined = await refund(businessId, { transactionReference: pos });
    expect(declined).toMatchObject({ ok: true, data: { amount: '50000', productType: 'pos' } });
    expect((await fixture.balances(outlet.collectionWallet.walletId)).available).toBe(0n);
    await settleAll(businessId);
    expect(await cardRefundRequests(businessId)).toEqual([
      expect.objectContaining({ paymentKind: 'pos', paymentReference: pos, amount: '50000' }),
    ]);
    await cardNetworkAnswers(businessId, declined.ok ? declined.data.reference : '', false);
    expect(await fixture.balances(outlet.collectionWallet.walletId)).toEqual({ ledger: 50_000n, available: 50_000n });
    // A failed refund takes nothing back: the whole amount can still be refunded.
    expect(await refund(businessId, { transactionReference: pos })).toMatchObject({
      ok: true,
      data: { amount: '50000' },
    });
  });

  it('refunds a payment whose fee took all of it, holding the amount on the wallet the payment reached', async () => {
    const businessId = await fixture.business();
    const outlet = await fixture.outlet(businessId);
    const settlement = await settlementOf(businessId);
    // ₦50 flat, a fifth of it the partner's commission (posted to the settlement wallet).
    const plan = { percentBps: 0, capKobo: null, floorKobo: 0n, flatKobo: 5_000n, commissionBps: 2000 };
    await fixture.setPlan(businessId, ['pos', 'card'], plan);
    await posPayment(businessId, outlet, '105000');
    const allFee = await posPayment(businessId, outlet, '5000');
    expect(await fixture.balances(outlet.collectionWallet.walletId)).toEqual({ ledger: 100_000n, available: 100_000n });

    const posRefund = await refund(businessId, { transactionReference: allFee });
    expect(posRefund).toMatchObject({ ok: true, data: { amount: '5000', productType: 'pos' } });
    expect((await fixture.balances(outlet.collectionWallet.walletId)).available).toBe(95_000n);
    const pending = (await fixture.partnerEvents(businessId)).filter((event) => event.event === 'refund.pending');
    expect(pending.map((event) => event.eventData.details)).toEqual([
      expect.objectContaining({ refundedTransactionReference: allFee, outletId: outlet.outletId }),
    ]);

    await paidCheckout(businessId, '105000');
    const checkout = await paidCheckout(businessId, '5000');
    const settlementBefore = await fixture.balances(settlement);
    expect(await refund(businessId, { transactionReference: checkout })).toMatchObject({
      ok: true,
      data: { amount: '5000', productType: 'checkout' },
    });
    expect(await fixture.balances(settlement)).toEqual({
      ledger: settlementBefore.ledger,
      available: settlementBefore.available - 5_000n,
    });
  });

  it('refuses what cannot be refunded, each with its reason', async () => {
    const businessId = await fixture.business();
    const checkout = await paidCheckout(businessId, '20000');
    expect(await refund(businessId, { transactionReference: 'CHK-unknown' })).toMatchObject({
      ok: false,
      error: { code: 'TRANSACTION_NOT_FOUND' },
    });
    expect(await refund(businessId, { transactionReference: checkout, amount: '20001' })).toMatchObject({
      ok: false,
      error: { code: 'REFUND_NOT_ALLOWED', message: expect.stringContaining('At most 20000 kobo') },
    });
    expect(await refund(businessId, { transactionReference: checkout })).toMatchObject({ ok: true });
    expect(await refund(businessId, { transactionReference: checkout })).toMatchObject({
      ok: false,
      error: { code: 'REFUND_NOT_ALLOWED', message: expect.stringContaining('already been fully refunded') },
    });
    // Money that has left the wallet cannot be refunded from it.
    const other = await fixture.business();
    const paid = await paidCheckout(other, '40000');
    const settlement = await settlementOf(other);
    const outlet = await fixture.outlet(other);
    expect(
      await send({
        type: 'internalTransfer',
        businessId: other,
        request: {
          reference: `out-${ulid()}`,
          amount: '35000',
          sourceWalletId: settlement,
          destinationWalletId: outlet.depositWallet.walletId,
        },
      }),
    ).toMatchObject({ ok: true });
    expect(await refund(other, { transactionReference: paid })).toMatchObject({
      ok: false,
      error: { code: 'INSUFFICIENT_FUNDS' },
    });
    // Another business's payment is not found.
    expect(await refund(other, { transactionReference: checkout, amount: '1' })).toMatchObject({
      ok: false,
      error: { code: 'TRANSACTION_NOT_FOUND' },
    });
  });

  it('answers a retried refund as the first time, and refuses its key for another refund', async () => {
    const businessId = await fixture.business();
    const checkout = await paidCheckout(businessId, '10000');
    const key = ulid();
    const first = await refund(businessId, { transactionReference: checkout, amount: '4000' }, key);
    const again = await Promise.all(
      [1, 2, 3].map(() => refund(businessId, { transactionReference: checkout, amount: '4000' }, key)),
    );
    expect(again).toEqual([first, first, first]);
    expect(await refund(businessId, { transactionReference: checkout, amount: '5000' }, key)).toMatchObject({
      ok: false,
      error: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
    expect((await fixture.balances(await settlementOf(businessId))).available).toBe(6_000n);
  });

  it('for any concurrent partial refunds: never more than was paid, holds match, the ledger balances', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 1_000_000n }),
        fc.array(
          fc.record({
            amount: fc.option(fc.bigInt({ min: 1n, max: 600_000n }), { freq: 4 }),
            declined: fc.boolean(),
            settleFirst: fc.boolean(),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        async (paid, requests) => {
          runs += 1;
          const businessId = await fixture.business();
          const checkout = await paidCheckout(businessId, paid.toString());
          const settlement = await settlementOf(businessId);
          // Four at a time, so refunds of one payment race for its remaining amount.
          for (let start = 0; start < requests.length; start += 4) {
            const batch = requests.slice(start, start + 4);
            if (batch[0].settleFirst) await settleAll(businessId);
            const answers = await Promise.all(
              batch.map((request) =>
                refund(businessId, {
                  transactionReference: checkout,
                  ...(request.amount === null ? {} : { amount: request.amount.toString() }),
                  ...(request.declined ? { reason: 'decline' } : {}),
                }),
              ),
            );
            for (const answer of answers) {
              if (!answer.ok) expect(['REFUND_NOT_ALLOWED', 'INSUFFICIENT_FUNDS']).toContain(answer.error.code);
            }
          }
          const totals = async () =>
            (
              (await fixture.dataSource.query(
                `SELECT coalesce(sum(amount) FILTER (WHERE status <> 'FAILED'), 0)::text AS taken,
                        coalesce(sum(amount) FILTER (WHERE status = 'PENDING'), 0)::text AS pending,
                        coalesce(sum(amount) FILTER (WHERE status = 'PROCESSED'), 0)::text AS processed
                 FROM outlets.refunds WHERE business_id = $1`,
                [businessId],
              )) as { taken: string; pending: string; processed: string }[]
            )[0];
          const before = await totals();
          expect(BigInt(before.taken)).toBeLessThanOrEqual(paid);
          expect(await fixture.balances(settlement)).toEqual({
            ledger: paid - BigInt(before.processed),
            available: paid - BigInt(before.processed) - BigInt(before.pending),
          });
          await settleAll(businessId);
          const after = await totals();
          expect(after.pending).toBe('0');
          expect(await fixture.balances(settlement)).toEqual({
            ledger: paid - BigInt(after.processed),
            available: paid - BigInt(after.processed),
          });
          expect(await fixture.unbalancedEntries(businessId)).toEqual([]);
        },
      ),
      { numRuns: 25 },
    );
    expect(runs).toBe(25);
  });
});
