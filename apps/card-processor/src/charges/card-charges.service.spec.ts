import { randomBytes } from 'node:crypto';

import { BusinessMode, CardChargeState, SANDBOX_OTP, SANDBOX_PIN } from '@payments/contracts';
import { CardFingerprints, Sealer } from '@payments/platform-crypto';
import { NewEvent, Outbox } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import {
  CardAuthoriser,
  DraftRequest,
  PaymentDecision,
  PaymentForNetwork,
  PaymentSettler,
  PreparedRequest,
} from '../card-network/card-authoriser';
import { CardNetwork, NetworkName } from '../card-network/card-network';
import { CardNetworks } from '../card-network/card-networks';
import { NetworkRequestRow, NewNetworkRequest } from '../card-network/network-requests.repository';
import { Env } from '../config/env';
import { SandboxVerification } from '../issuer/sandbox-verification';
import { CardChargesRepository, ChargeRow } from './card-charges.repository';
import { CardChargesService } from './card-charges.service';

/** The charges table as a map, with the repository's contract: one charge per checkout. */
class FakeChargesRepository {
  readonly rows = new Map<string, ChargeRow>();

  async insertFirstSending(charge: ChargeRow) {
    const inserted = await this.insertFirst({} as EntityManager, charge);
    return inserted && { charge: inserted, drawn: { stan: '000001', rrn: '000000000001', transmitted_at: new Date() } };
  }

  async insertFirst(_em: EntityManager, charge: ChargeRow): Promise<ChargeRow | undefined> {
    if (this.rows.has(charge.checkout_reference)) return undefined;
    this.rows.set(charge.checkout_reference, { ...charge });
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

  async endIfProcessing(
    _em: EntityManager,
    businessId: string,
    reference: string,
    status: 'SUCCESS' | 'FAILED',
    declineReason: string | null,
  ) {
    const row = this.rows.get(reference);
    if (row?.business_id !== businessId || row.status !== 'PROCESSING') return undefined;
    return this.save({} as EntityManager, { ...row, steps: [], status, decline_reason: declineReason });
  }

  async save(_em: EntityManager, charge: ChargeRow): Promise<ChargeRow> {
    const held = charge.status === 'PROCESSING' && charge.steps.length > 0;
    const saved = { ...charge, sealed_card: held ? charge.sealed_card : null };
    this.rows.set(charge.checkout_reference, saved);
    return { ...saved };
  }
}

/**
 * The network step as the charges see it: each request is decided at once, by the card
 * (docs/test-cards.json's declined card is declined), and settled through the service.
 */
class FakeAuthoriser {
  readonly sent: PaymentForNetwork[] = [];
  private readonly payments = new Map<string, PaymentForNetwork>();
  /** Set: the sweep decides each request so while its sender waits, and the sender's answer decides nothing. */
  decidedElsewhere?: PaymentDecision;
  private settler?: PaymentSettler;

  register(_purpose: string, settler: PaymentSettler) {
    this.settler = settler;
  }

  async prepare(em: EntityManager, payment: PaymentForNetwork): Promise<PreparedRequest> {
    const draft = await this.draft(em, payment);
    return draft.written({ stan: '000001', rrn: '000000000001', transmitted_at: new Date() });
  }

  async draft(_em: EntityManager, payment: PaymentForNetwork): Promise<DraftRequest> {
    this.sent.push(payment);
    const id = `request-${this.sent.length}`;
    this.payments.set(id, payment);
    return {
      values: { id } as NewNetworkRequest,
      written: (drawn) => ({
        row: { id, network: 'sandbox', acquirer_id: '627629', ...drawn },
        request: { pan: payment.card.pan } as PreparedRequest['request'],
        preparedAt: 0,
      }),
    };
  }

  async send({ row: sent, request }: PreparedRequest): Promise<PaymentDecision | undefined> {
    const payment = this.payments.get(sent.id)!;
    const row = { business_id: payment.businessId, payment_reference: payment.paymentReference } as NetworkRequestRow;
    if (this.decidedElsewhere) {
      await this.settler!.settle({} as EntityManager, row, this.decidedElsewhere);
      return undefined;
    }
    const approved = request.pan !== declined;
    const decision: PaymentDecision = approved ? { approved } : { approved, reason: 'Declined by the card issuer' };
    return (await this.settler!.settle({} as EntityManager, row, decision)) ? decision : undefined;
  }
}

const connected = (...names: NetworkName[]) => new CardNetworks(names.map((name) => ({ name }) as CardNetwork));

class FakeOutbox extends Outbox {
  readonly enqueued: NewEvent<unknown>[] = [];
  override async enqueue<T>(_em: EntityManager, event: NewEvent<T>) {
    this.enqueued.push(event);
    return this.row(event).payload;
  }
}

const declined = '4000000000000002';
const cardKey = randomBytes(32).toString('base64');
const fingerprintKey = randomBytes(32).toString('base64');
const sealer = new Sealer(cardKey);
const businessId = 'biz-1';
let checkouts = 0;

function setup({ networks = connected('sandbox') } = {}) {
  const charges = new FakeChargesRepository();
  const authoriser = new FakeAuthoriser();
  const outbox = new FakeOutbox();
  const dataSource = {
    manager: {} as EntityManager,
    transaction: (work: (em: EntityManager) => unknown) => work({} as EntityManager),
  };
  const env = Object.assign(new Env(), { CARD_DATA_KEY: cardKey, CARD_FINGERPRINT_KEY: fingerprintKey });
  const service = new CardChargesService(
    dataSource as unknown as DataSource,
    charges as unknown as CardChargesRepository,
    sealer,
    new SandboxVerification(),
    outbox,
    authoriser as unknown as CardAuthoriser,
    networks,
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
  const fingerprints = new CardFingerprints(fingerprintKey);
  const outcome = (cardNumber?: string) =>
    service.outcome({
      businessId,
      checkoutReference,
      ...(cardNumber ? { cardFingerprint: fingerprints.of(cardNumber) } : {}),
    });
  const succeededEvents = () => outbox.enqueued.length;
  return { service, charges, authoriser, start, answer, outcome, checkoutReference, succeededEvents };
}

const pinThenOtp = '5060990000000000027';
const noVerification = '5060990000000000019';
const threeDs = '4000000000003006';

describe('CardChargesService: the card-charge state machine', () => {
  it('sends a card that asks for nothing to the network at once, and queues its success', async () => {
    const { start, authoriser, charges, checkoutReference, succeededEvents } = setup();
    const state = await start(noVerification);
    expect(state).toMatchObject({ transactionStatus: 'SUCCESS', nextAction: 'none', maskedPan: '506099*********0019' });
    expect(succeededEvents()).toBe(1);
    expect(authoriser.sent).toEqual([
      expect.objectContaining({
        purpose: 'checkout',
        paymentReference: checkoutReference,
        mode: 'test',
        kind: 'purchase',
        amount: '150000',
        card: { pan: noVerification, expiry: '3912', accountType: 'default', entryMode: 'not-present' },
      }),
    ]);
    // Nothing of the card is held once the network has it.
    expect(charges.rows.get(checkoutReference)!.sealed_card).toBeNull();
  });

  it('holds the card sealed while steps remain, and sends it to the network after the last one', async () => {
    const { start, answer, authoriser, charges, checkoutReference } = setup();
    await start(pinThenOtp);
    const held = charges.rows.get(checkoutReference)!.sealed_card!;
    expect(held).not.toContain(pinThenOtp);
    expect(JSON.parse(sealer.open(held, charges.rows.get(checkoutReference)!.id))).toEqual({
      pan: pinThenOtp,
      expiryDate: '12/39',
    });
    await answer({ pin: SANDBOX_PIN });
    expect(authoriser.sent).toHaveLength(0);
    expect(await answer({ otp: SANDBOX_OTP })).toMatchObject({ transactionStatus: 'SUCCESS' });
    expect(authoriser.sent.map((payment) => payment.card.pan)).toEqual([pinThenOtp]);
  });

  it('refuses a live business’s card while no live network is connected, and never walks sandbox steps for one', async () => {
    const { start, charges, checkoutReference } = setup();
    await expect(start(pinThenOtp, { mode: 'live' })).rejects.toMatchObject({ code: 'SANDBOX_ONLY' });
    expect(charges.rows.has(checkoutReference)).toBe(false);
    const live = setup({ networks: connected('sandbox', 'live') });
    expect(await live.start(pinThenOtp, { mode: 'live' })).toMatchObject({ transactionStatus: 'SUCCESS' });
    expect(live.authoriser.sent[0]).toMatchObject({ mode: 'live' });
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

  it('ends with the network’s decline', async () => {
    const { start, succeededEvents } = setup();
    expect(await start(declined)).toMatchObject({
      transactionStatus: 'FAILED',
      message: 'Declined by the card issuer',
    });
    expect(succeededEvents()).toBe(0);
  });

  it('answers with the charge as another decider ended it when its own answer decided nothing', async () => {
    const { start, authoriser } = setup();
    authoriser.decidedElsewhere = { approved: false, reason: 'The card network did not answer in time' };
    expect(await start(noVerification)).toMatchObject({
      transactionStatus: 'FAILED',
      message: 'The card network did not answer in time',
    });
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
