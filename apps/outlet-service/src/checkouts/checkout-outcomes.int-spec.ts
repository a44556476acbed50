import { randomUUID } from 'node:crypto';

import {
  CardChargeSucceededV1,
  ChargeFigures,
  CheckoutOutcome,
  OutletCommand,
  PosTransactionDecidedV1,
  Topics,
} from '@payments/contracts';
import { singleRow } from '@payments/platform-database';
import { eventually, testEvent, testMessageContext } from '@payments/testing';
import { ulid } from 'ulid';

import { PosOutcomesConsumer } from '../pos/pos-outcomes.consumer';
import { OutletServiceFixture } from '../testing/outlet-service.fixture';
import { CardChargesConsumer } from './card-charges.consumer';
import { CardCheckoutPayments } from './card-checkout-payments';

jest.setTimeout(90_000);

const cardCharges = testMessageContext(Topics.cardCharges.name);

/** outlet-service decides how a checkout ends: the first payment or closing wins, once. */
describe('checkout outcomes in the ledger', () => {
  let fixture: OutletServiceFixture;
  let businessId: string;

  beforeAll(async () => {
    fixture = await OutletServiceFixture.start();
    businessId = await fixture.business();
  });

  afterAll(() => fixture.close());

  const send = <T = Record<string, unknown>>(command: OutletCommand) => fixture.command<T>(command);
  const ok = async <T = Record<string, unknown>>(command: OutletCommand): Promise<T> => {
    const reply = await send<T>(command);
    if (!reply.ok) throw new Error(`${command.type} failed: ${reply.error.code} ${reply.error.message}`);
    return reply.data;
  };
  const newCheckout = () => `CHK-${ulid()}`;
  const accountFor = async (checkoutReference: string, amount = '5000') =>
    (
      await ok<{ accountNumber: string }>({
        type: 'assignCheckoutAccount',
        businessId,
        checkoutReference,
        amount,
        expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      })
    ).accountNumber;
  const transfer = (accountNumber: string, sessionId: string, amount = '5000') =>
    send({ type: 'creditVirtualAccount', businessId, accountNumber, sessionId, request: { amount } });
  const close = (checkoutReference: string) =>
    ok<{ checkoutReference: string; status: string; method: string | null }[]>({
      type: 'closeCheckouts',
      checkouts: [{ businessId, checkoutReference, comment: 'Checkout expired before payment' }],
    });
  const payQr = (checkoutReference: string, paymentId = ulid()) =>
    send({
      type: 'settleCheckoutPayment',
      businessId,
      checkoutReference,
      amount: '5000',
      method: 'qr-wallet',
      paymentId,
    });
  const entries = async (kind: string, reference: string) =>
    (
      (await fixture.dataSource.query(
        `SELECT count(*)::int AS count FROM outlets.journal_entries WHERE business_id = $1 AND kind = $2 AND reference = $3`,
        [businessId, kind, reference],
      )) as { count: number }[]
    )[0].count;
  const decidedEvents = async (checkoutReference: string) =>
    (
      (await fixture.dataSource.query(
        `SELECT payload->'payload' AS outcome FROM outlets.outbox WHERE topic = 'checkout.payments.v1' AND payload->'payload'->>'checkoutReference' = $1`,
        [checkoutReference],
      )) as { outcome: { status: string; method: string } }[]
    ).map((row) => row.outcome);
  const systemWallet = async (type: string) =>
    (
      (await fixture.dataSource.query(
        `SELECT id, ledger_balance FROM outlets.wallets WHERE business_id = $1 AND type = $2`,
        [businessId, type],
      )) as {
        id: string;
        ledger_balance: string;
      }[]
    )[0];

  it('refuses a transfer to a checkout that was closed FAILED, and books nothing', async () => {
    const reference = newCheckout();
    const account = await accountFor(reference);
    expect(await close(reference)).toEqual([
      expect.objectContaining({ checkoutReference: reference, status: 'FAILED' }),
    ]);
    const reply = await transfer(account, randomUUID());
    expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_TRANSFER' } });
    expect(await entries('checkout', reference)).toBe(0);
  });

  it('issues no checkout account to a live business: only the sandbox bank issues them', async () => {
    const live = await fixture.business('live');
    const checkoutReference = newCheckout();
    const reply = await send({
      type: 'assignCheckoutAccount',
      businessId: live,
      checkoutReference,
      amount: '5000',
      expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'SANDBOX_ONLY' } });
    const accounts = (await fixture.dataSource.query(
      `SELECT count(*)::int AS count FROM outlets.checkout_accounts WHERE checkout_reference = $1`,
      [checkoutReference],
    )) as { count: number }[];
    expect(accounts[0].count).toBe(0);
  });

  it("credits only the caller's own accounts: another business's answer as unknown numbers, and move nothing", async () => {
    const owner = await fixture.business();
    const reference = newCheckout();
    const checkoutAccount = (
      await ok<{ accountNumber: string }>({
        type: 'assignCheckoutAccount',
        businessId: owner,
        checkoutReference: reference,
        amount: '5000',
        expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      })
    ).accountNumber;
    const outlet = await fixture.outlet(owner);
    const sessionId = randomUUID();
    for (const accountNumber of [checkoutAccount, outlet.collectionWallet.accountNumber]) {
      expect(await transfer(accountNumber, sessionId)).toMatchObject({
        ok: false,
        error: { code: 'VIRTUAL_ACCOUNT_NOT_FOUND', status: 404 },
      });
    }
    expect(await decidedEvents(reference)).toEqual([]);
    expect(await fixture.balances(outlet.collectionWallet.walletId)).toEqual({ ledger: 0n, available: 0n });

    // The owner's own credits go through, the first under the session id the refused caller used.
    const own = (accountNumber: string, ownSessionId: string) =>
      ok<{ netAmount: string }>({
        type: 'creditVirtualAccount',
        businessId: owner,
        accountNumber,
        sessionId: ownSessionId,
        request: { amount: '5000' },
      });
    await own(checkoutAccount, sessionId);
    expect(await decidedEvents(reference)).toEqual([
      expect.objectContaining({ status: 'SUCCESS', method: 'pay-with-transfer' }),
    ]);
    const { netAmount } = await own(outlet.collectionWallet.accountNumber, randomUUID());
    expect((await fixture.balances(outlet.collectionWallet.walletId)).ledger).toBe(BigInt(netAmount));
  });

  it('answers closing with SUCCESS when a transfer paid the checkout first', async () => {
    const reference = newCheckout();
    const account = await accountFor(reference);
    expect((await transfer(account, randomUUID())).ok).toBe(true);
    expect(await close(reference)).toEqual([
      expect.objectContaining({ status: 'SUCCESS', method: 'pay-with-transfer' }),
    ]);
    expect(await decidedEvents(reference)).toEqual([
      expect.objectContaining({ status: 'SUCCESS', method: 'pay-with-transfer' }),
    ]);
  });

  it('answers an already-decided checkout with the charge its payment booked, whichever way it was paid', async () => {
    const priced = await fixture.business();
    const plan = { percentBps: 150, capKobo: null, floorKobo: 0n, flatKobo: 0n, commissionBps: 2000 };
    await fixture.setPlan(priced, ['transfer', 'card'], plan);
    const closeOf = async (checkoutReference: string) =>
      (
        await ok<CheckoutOutcome[]>({
          type: 'closeCheckouts',
          checkouts: [{ businessId: priced, checkoutReference, comment: 'Checkout expired before payment' }],
        })
      )[0];

    const byTransfer = newCheckout();
    const { accountNumber } = await ok<{ accountNumber: string }>({
      type: 'assignCheckoutAccount',
      businessId: priced,
      checkoutReference: byTransfer,
      amount: '5000',
      expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    const paid = await ok<ChargeFigures>({
      type: 'creditVirtualAccount',
      businessId: priced,
      accountNumber,
      sessionId: randomUUID(),
      request: { amount: '5000' },
    });
    const booked = { fee: paid.fee, commission: paid.commission, netAmount: paid.netAmount };
    expect(booked).toEqual({ fee: '75', commission: '15', netAmount: '4925' });
    expect(await closeOf(byTransfer)).toMatchObject({ status: 'SUCCESS', charge: booked });

    // A card booked in move_money's one round trip; then a closing, and a second card that comes too late.
    const byCard = newCheckout();
    const card = (chargeId: string) => ({
      chargeId,
      businessId: priced,
      checkoutReference: byCard,
      amount: '5000',
      maskedPan: '506099*********0019',
    });
    const cards = fixture.get(CardCheckoutPayments);
    expect((await cards.pay(card(ulid()))).outcome.charge).toEqual(booked);
    expect((await closeOf(byCard)).charge).toEqual(booked);
    const late = await cards.pay(card(ulid()));
    expect(late).toMatchObject({ accepted: false, outcome: { charge: booked } });
  });

  it('books a QR payment and its outcome in one commit, which closing cannot undo', async () => {
    const reference = newCheckout();
    const paid = await payQr(reference);
    expect(paid.ok).toBe(true);
    expect(await decidedEvents(reference)).toEqual([
      expect.objectContaining({ status: 'SUCCESS', method: 'qr-wallet' }),
    ]);
    expect(await close(reference)).toEqual([expect.objectContaining({ status: 'SUCCESS', method: 'qr-wallet' })]);
    expect(await entries('checkout', reference)).toBe(1);
  });

  it('books a card charge once when the gateway asks the ledger while its event is booking it', async () => {
    const reference = newCheckout();
    const chargeId = ulid();
    const charge = {
      chargeId,
      businessId,
      checkoutReference: reference,
      amount: '5000',
      maskedPan: '506099*********0019',
    };
    const event = testEvent(CardChargeSucceededV1, { ...charge, succeededAt: new Date().toISOString() });
    const [fromEvent, fromGateway] = await Promise.all([
      fixture.get(CardCheckoutPayments).pay(event.payload),
      fixture.get(CardCheckoutPayments).pay(charge),
    ]);
    expect(fromGateway).toMatchObject({ accepted: true, outcome: { status: 'SUCCESS', paymentId: chargeId } });
    expect(fromEvent).toEqual(fromGateway);
    expect(await entries('checkout', reference)).toBe(1);
  });

  it('keeps a card payment captured after the checkout was paid in the suspense wallet, with a refund record and an event', async () => {
    const reference = newCheckout();
    const account = await accountFor(reference);
    expect((await transfer(account, randomUUID())).ok).toBe(true);
    const suspenseBefore = BigInt((await systemWallet('suspense')).ledger_balance);
    const chargeId = ulid();
    const event = testEvent(CardChargeSucceededV1, {
      chargeId,
      businessId,
      checkoutReference: reference,
      amount: '5000',
      maskedPan: '506099*********0035',
      succeededAt: new Date().toISOString(),
    });
    await fixture.get(CardChargesConsumer).handle(event, cardCharges);
    await fixture.get(CardChargesConsumer).handle({ ...event, eventId: randomUUID() }, cardCharges);

    expect(BigInt((await systemWallet('suspense')).ledger_balance) - suspenseBefore).toBe(5000n);
    expect(await entries('checkout', reference)).toBe(1);
    const refunds = (await fixture.dataSource.query(
      `SELECT amount::text, status, transaction_reference FROM outlets.refunds WHERE business_id = $1 AND checkout_reference = $2`,
      [businessId, reference],
    )) as { amount: string; status: string; transaction_reference: string }[];
    expect(refunds).toEqual([{ amount: '5000', status: 'PENDING', transaction_reference: chargeId }]);
    const refundEvents = (await fixture.partnerEvents(businessId)).filter((e) => e.event === 'refund.pending');
    expect(refundEvents).toEqual([
      expect.objectContaining({
        eventData: expect.objectContaining({
          amount: '5000',
          transactionStatus: 'PROCESSING',
          details: expect.objectContaining({ checkoutReference: reference, chargeId }),
        }),
      }),
    ]);
  });

  it('holds money events of a business not onboarded yet, off their partition, and books them once it is', async () => {
    const stranger = ulid();
    const charge = testEvent(CardChargeSucceededV1, {
      chargeId: ulid(),
      businessId: stranger,
      checkoutReference: newCheckout(),
      amount: '700',
      maskedPan: '506099*********0019',
      succeededAt: new Date().toISOString(),
    });
    const pos = testEvent(PosTransactionDecidedV1, {
      reference: ulid(),
      businessId: stranger,
      serialNumber: 'SN-HELD',
      outletId: null,
      amount: '4200',
      maskedPan: '506146*********3210',
      approved: true,
      declineReason: null,
      decidedAt: new Date().toISOString(),
    });
    // Handled without an error, so the partition moves on; a redelivery is held once.
    await fixture.get(CardChargesConsumer).handle(charge, cardCharges);
    await fixture.get(PosOutcomesConsumer).handle(pos);
    await fixture.get(PosOutcomesConsumer).handle(pos);
    const held = () =>
      fixture.dataSource.query(`SELECT kind FROM outlets.awaiting_onboarding WHERE business_id = $1 ORDER BY kind`, [
        stranger,
      ]) as Promise<{ kind: string }[]>;
    expect(await held()).toEqual([{ kind: 'card-charge' }, { kind: 'pos-outcome' }]);

    await fixture.business('test', stranger);
    await eventually(async () => ((await held()).length === 0 ? true : undefined));
    const booked = (await fixture.dataSource.query(
      `SELECT kind, reference FROM outlets.journal_entries WHERE business_id = $1 ORDER BY kind`,
      [stranger],
    )) as { kind: string; reference: string }[];
    expect(booked).toEqual([
      { kind: 'checkout', reference: charge.payload.checkoutReference },
      { kind: 'pos', reference: pos.payload.reference },
    ]);
  });

  it('answers a repeated bank notification for a checkout transfer with its first answer', async () => {
    const reference = newCheckout();
    const account = await accountFor(reference);
    const sessionId = randomUUID();
    const first = await transfer(account, sessionId);
    const again = await transfer(account, sessionId);
    expect(first.ok).toBe(true);
    expect(again).toEqual(first);
    expect(await entries('checkout', reference)).toBe(1);
  });

  it('credits a redelivered sandbox credit command once', async () => {
    const outlet = await fixture.outlet(businessId, { accountName: 'Redelivered' });
    const command: OutletCommand = {
      type: 'creditVirtualAccount',
      businessId,
      accountNumber: outlet.collectionWallet.accountNumber,
      sessionId: ulid(),
      request: { amount: '900' },
    };
    expect((await send(command)).ok).toBe(true);
    expect((await send(command)).ok).toBe(true);
    expect(await fixture.balances(outlet.collectionWallet.walletId)).toEqual({ ledger: 900n, available: 900n });
  });

  it('creates one outlet for a repeated Idempotency-Key, and refuses the key with another body', async () => {
    const idempotencyKey = `outlet-${randomUUID()}`;
    const create = (accountName: string, commandId = ulid()) =>
      send<{ outletId: string }>({
        type: 'createOutlet',
        businessId,
        request: { accountName },
        idempotencyKey,
        commandId,
      });
    const first = await create('Keyed Outlet');
    const again = await create('Keyed Outlet');
    expect(first.ok && again.ok && again.data.outletId === first.data.outletId).toBe(true);
    expect(await create('Another Name')).toMatchObject({
      ok: false,
      error: { code: 'IDEMPOTENCY_KEY_REUSED', status: 422 },
    });
    const { count } = await singleRow<{ count: number }>(
      fixture.dataSource,
      `SELECT count(*)::int AS count FROM outlets.outlets WHERE business_id = $1 AND account_name = 'Keyed Outlet'`,
      [businessId],
    );
    expect(count).toBe(1);
  });

  it('creates one outlet when the same create command is delivered twice without a key', async () => {
    const command: OutletCommand = {
      type: 'createOutlet',
      businessId,
      request: { accountName: `Once ${ulid()}` },
      commandId: ulid(),
    };
    const first = await send<{ outletId: string }>(command);
    const again = await send<{ outletId: string }>(command);
    expect(first.ok && again.ok && again.data.outletId === first.data.outletId).toBe(true);
  });

  it('keeps partner transfer references apart from the ledger’s own references', async () => {
    const outlet = await fixture.outlet(businessId, { accountName: 'Namespaces' });
    await fixture.fund(outlet.collectionWallet.accountNumber, 10_000n);
    const reference = newCheckout();
    const internal = await send({
      type: 'internalTransfer',
      businessId,
      request: {
        reference: `checkout:${reference}`,
        amount: '100',
        sourceWalletId: outlet.collectionWallet.walletId,
        destinationWalletId: outlet.depositWallet.walletId,
      },
    });
    expect(internal.ok).toBe(true);
    expect((await payQr(reference)).ok).toBe(true);
    expect(await entries('checkout', reference)).toBe(1);
  });
});
