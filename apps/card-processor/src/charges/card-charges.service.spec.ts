import { randomBytes } from 'node:crypto';

import { BusinessMode, CardChargeState, SANDBOX_OTP, SANDBOX_PIN } from '@payments/contracts';
import { CardFingerprints, Sealer } from '@payments/platform-crypto';
import { NewEvent, Outbox, OutboxRow } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import { Env } from '../config/env';
import { SandboxIssuer } from '../issuer/sandbox-issuer';
import { CardChargesRepository, ChargeRow } from './card-charges.repository';
import { CardChargesService } from './card-charges.service';

/** The charges table as a map, with the repository's contract: one charge per checkout. */
class FakeChargesRepository {
  readonly rows = new Map<string, ChargeRow>();
  readonly firstEvents: OutboxRow[] = [];

  async insertFirst(charge: ChargeRow, event: OutboxRow | null): Promise<ChargeRow | null> {
    if (this.rows.has(charge.checkout_reference)) return null;
    this.rows.set(charge.checkout_reference, { ...charge });
    if (event) this.firstEvents.push(event);
    return { ...charge };
  }

  async lockForCheckout(_em: EntityManager, businessId: string, reference: string) {
    const row = this.rows.get(reference);
    return row && row.business_id === businessId ? { ...row } : undefined;
  }

  async findForCheckout(businessId: string, reference: string) {
    return this.lockForCheckout({} as EntityManager, businessId, reference);
  }

  async lockForAcs(_em: EntityManager, chargeId: string, reference: string) {
    const row = this.rows.get(reference);
    return row && row.id === chargeId ? { ...row } : undefined;
  }

  async save(_em: EntityManager, charge: ChargeRow): Promise<ChargeRow> {
    this.rows.set(charge.checkout_reference, { ...charge });
    return { ...charge };
  }
}

class FakeOutbox extends Outbox {
  readonly enqueued: NewEvent<unknown>[] = [];
  override async enqueue<T>(_em: EntityManager, event: NewEvent<T>) {
    this.enqueued.push(event);
    return this.row(event).payload;
  }
}

const cardKey = randomBytes(32).toString('base64');
const sealer = new Sealer(cardKey);
const businessId = 'biz-1';
let checkouts = 0;

function setup() {
  const charges = new FakeChargesRepository();
  const outbox = new FakeOutbox();
  const dataSource = { transaction: (work: (em: EntityManager) => unknown) => work({} as EntityManager) };
  const env = Object.assign(new Env(), { CARD_DATA_KEY: cardKey });
  const service = new CardChargesService(
    dataSource as unknown as DataSource,
    charges as unknown as CardChargesRepository,
    sealer,
    new SandboxIssuer(),
    outbox,
    env,
  );
  const checkoutReference = `CHK-${++checkouts}`;
  const start = (cardNumber: string, extra: { pin?: string; expiresAt?: string; mode?: BusinessMode } = {}) =>
    service.start({
      businessId,
      mode: extra.mode ?? 'test',
      checkoutReference,
      amount: '150000',
      expiresAt: extra.expiresAt,
      sealedCard: sealer.seal(
        JSON.stringify({ cardNumber, expiryDate: '12/39', cvv: '123', ...(extra.pin ? { pin: extra.pin } : {}) }),
        checkoutReference,
      ),
    });
  const answer = (fields: Record<string, unknown>) =>
    service.authorize({
      businessId,
      checkoutReference,
      sealedAuthorization: sealer.seal(JSON.stringify(fields), checkoutReference),
    });
  const fingerprints = new CardFingerprints(cardKey);
  const outcome = (cardNumber?: string) =>
    service.outcome({
      businessId,
      checkoutReference,
      ...(cardNumber ? { cardFingerprint: fingerprints.of(cardNumber) } : {}),
    });
  const succeededEvents = () => charges.firstEvents.length + outbox.enqueued.length;
  return { service, charges, start, answer, outcome, checkoutReference, succeededEvents };
}

const pinThenOtp = '5060990000000000027';
const noVerification = '5060990000000000019';
const declined = '4000000000000002';
const threeDs = '4000000000003006';

describe('CardChargesService: the card-charge state machine', () => {
  it('decides a card that asks for nothing at once, and queues its success with the charge', async () => {
    const { start, succeededEvents } = setup();
    const state = await start(noVerification);
    expect(state).toMatchObject({ transactionStatus: 'SUCCESS', nextAction: 'none', maskedPan: '506099*********0019' });
    expect(succeededEvents()).toBe(1);
  });

  it('declines a live business’s card at once, never walking a sandbox card’s steps', async () => {
    for (const card of [pinThenOtp, threeDs, noVerification]) {
      const { start, succeededEvents } = setup();
      expect(await start(card, { mode: 'live' })).toMatchObject({
        transactionStatus: 'FAILED',
        nextAction: 'none',
        message: 'Live card processing is not available yet',
      });
      expect(succeededEvents()).toBe(0);
    }
  });

  it('answers a payment sent again with how its charge ended, for the same card only', async () => {
    const { start, answer, outcome, succeededEvents } = setup();
    expect(await outcome(pinThenOtp)).toBeNull();
    await start(pinThenOtp);
    expect(await outcome(pinThenOtp)).toBeNull();
    expect(await outcome()).toBeNull();
    await answer({ pin: SANDBOX_PIN });
    const ended = await answer({ otp: SANDBOX_OTP });
    expect(await outcome(pinThenOtp)).toEqual(ended);
    expect(await outcome(noVerification)).toBeNull();
    // A step names no card: the charge as it ended, whatever its card.
    expect(await outcome()).toEqual(ended);
    expect(succeededEvents()).toBe(1);
  });

  it('walks PIN then OTP, each step with its own three tries, and succeeds once', async () => {
    const { start, answer, succeededEvents } = setup();
    expect((await start(pinThenOtp)).nextAction).toBe('pin');
    const wrong = await answer({ pin: '0000' });
    expect(wrong).toMatchObject({ nextAction: 'pin', attemptsLeft: 2, transactionStatus: 'PROCESSING' });
    expect((await answer({ pin: SANDBOX_PIN })).nextAction).toBe('otp');
    expect((await answer({ otp: '000000' })).attemptsLeft).toBe(2);
    expect(await answer({ otp: SANDBOX_OTP })).toMatchObject({ transactionStatus: 'SUCCESS', nextAction: 'none' });
    expect(succeededEvents()).toBe(1);
    // Answering again after the end changes nothing and books nothing twice.
    expect((await answer({ otp: SANDBOX_OTP })).transactionStatus).toBe('SUCCESS');
    expect(succeededEvents()).toBe(1);
  });

  it('skips the PIN step when the PIN came with the card, and counts a wrong one as a try', async () => {
    expect((await setup().start(pinThenOtp, { pin: SANDBOX_PIN })).nextAction).toBe('otp');
    const { start } = setup();
    expect(await start(pinThenOtp, { pin: '9999' })).toMatchObject({ nextAction: 'pin', attemptsLeft: 2 });
  });

  it('fails the charge after three wrong answers, without a success event', async () => {
    const { start, answer, succeededEvents } = setup();
    await start(pinThenOtp);
    await answer({ pin: '1111' });
    await answer({ pin: '2222' });
    const ended = await answer({ pin: '3333' });
    expect(ended).toMatchObject({ transactionStatus: 'FAILED', message: 'Too many wrong PIN attempts' });
    expect(succeededEvents()).toBe(0);
  });

  it('refuses an answer to a step it does not expect, and 3-D Secure outside the bank page', async () => {
    const { start, answer } = setup();
    await start(pinThenOtp);
    await expect(answer({ otp: SANDBOX_OTP })).rejects.toMatchObject({ code: 'UNEXPECTED_AUTHORIZATION' });
    await expect(answer({ pin: SANDBOX_PIN, otp: SANDBOX_OTP })).rejects.toMatchObject({
      code: 'UNEXPECTED_AUTHORIZATION',
    });
    const acs = setup();
    await acs.start(threeDs);
    await expect(acs.answer({ otp: SANDBOX_OTP })).rejects.toMatchObject({ code: 'UNEXPECTED_AUTHORIZATION' });
  });

  it('ends with the issuer decline once the steps are done', async () => {
    const { start, succeededEvents } = setup();
    expect(await start(declined)).toMatchObject({ transactionStatus: 'FAILED', message: 'Do not honour' });
    expect(succeededEvents()).toBe(0);
  });

  it('completes or declines 3-D Secure from the bank page, once', async () => {
    const approved = setup();
    const started: CardChargeState = await approved.start(threeDs);
    expect(started.nextAction).toBe('3ds');
    expect(
      (await approved.service.complete3ds(started.chargeId, approved.checkoutReference, true)).transactionStatus,
    ).toBe('SUCCESS');
    expect(
      (await approved.service.complete3ds(started.chargeId, approved.checkoutReference, false)).transactionStatus,
    ).toBe('SUCCESS');
    expect(approved.succeededEvents()).toBe(1);

    const refused = setup();
    const other = await refused.start(threeDs);
    const declinedState = await refused.service.complete3ds(other.chargeId, refused.checkoutReference, false);
    expect(declinedState).toMatchObject({ transactionStatus: 'FAILED' });
  });

  it('fails a step answered after the checkout expired instead of completing the payment', async () => {
    const { start, answer, charges, checkoutReference, succeededEvents } = setup();
    await start(pinThenOtp, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    charges.rows.get(checkoutReference)!.expires_at = new Date(Date.now() - 1);
    expect(await answer({ pin: SANDBOX_PIN })).toMatchObject({ transactionStatus: 'FAILED' });
    expect(succeededEvents()).toBe(0);
  });

  it('answers a retry with the same card where the charge stands, and refuses another card meanwhile', async () => {
    const { start } = setup();
    await start(pinThenOtp);
    expect((await start(pinThenOtp)).nextAction).toBe('pin');
    await expect(start('5060990000000000035')).rejects.toMatchObject({ code: 'CHARGE_IN_PROGRESS' });
  });

  it('refuses a charge already expired, and an unknown charge for another business', async () => {
    const { start, service, checkoutReference } = setup();
    await expect(start(noVerification, { expiresAt: new Date(Date.now() - 1).toISOString() })).rejects.toMatchObject({
      code: 'CHECKOUT_NOT_PAYABLE',
    });
    await expect(
      service.authorize({
        businessId: 'another-business',
        checkoutReference,
        sealedAuthorization: sealer.seal(JSON.stringify({ pin: SANDBOX_PIN }), checkoutReference),
      }),
    ).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
  });
});
