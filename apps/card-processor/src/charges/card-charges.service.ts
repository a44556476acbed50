import { Inject, Injectable } from '@nestjs/common';
import {
  answeredSteps,
  BusinessMode,
  CardAuthorizationRequest,
  CardChargeState,
  CardChargeSucceededV1,
  CardChargeSucceededV1Payload,
  CardPaymentRequest,
  NextAction,
  SANDBOX_OTP,
  SANDBOX_PIN,
  Topics,
} from '@payments/contracts';
import { CardFingerprints, newUlid, Sealer } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { replyAddressToForward, replyForwarded } from '@payments/platform-kafka';
import { NewEvent, Outbox } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import {
  CardAuthoriser,
  PaymentDecision,
  PaymentForNetwork,
  PaymentSettler,
  PreparedRequest,
} from '../card-network/card-authoriser';
import { CardNetworks } from '../card-network/card-networks';
import { NetworkRequestRow } from '../card-network/network-requests.repository';
import { Env } from '../config/env';
import { SandboxVerification } from '../issuer/sandbox-verification';
import { CARD_SEALER } from '../tokens';
import { CardChargesRepository, ChargeRow } from './card-charges.repository';

const maxAttempts = 3;
const avsFields = ['line1', 'city', 'state', 'postalCode', 'country'];

/** The card a charge holds while its steps are answered: what the network step needs, never the CVV. */
interface HeldCard {
  pan: string;
  /** As printed, MM/YY. */
  expiryDate: string;
}

/** A charge as a transaction left it, with the network request to send once it has committed. */
interface ChargeStep {
  charge: ChargeRow;
  authorisation?: PreparedRequest;
}

/**
 * A card charge and its verification steps: a small state machine per checkout, kept in
 * PostgreSQL and changed under a row lock, so retries and concurrent calls see one charge.
 * Once no step is left, the card network decides it (CardAuthoriser): the charge waits,
 * PROCESSING with nothing to do, until the answer ends it here.
 */
@Injectable()
export class CardChargesService implements PaymentSettler {
  private readonly fingerprints: CardFingerprints;

  constructor(
    private readonly dataSource: DataSource,
    private readonly charges: CardChargesRepository,
    @Inject(CARD_SEALER) private readonly sealer: Sealer,
    private readonly verification: SandboxVerification,
    private readonly outbox: Outbox,
    private readonly authoriser: CardAuthoriser,
    private readonly networks: CardNetworks,
    env: Env,
  ) {
    this.fingerprints = new CardFingerprints(env.CARD_FINGERPRINT_KEY);
    authoriser.register('checkout', this);
  }

  async start(command: {
    businessId: string;
    mode: BusinessMode;
    checkoutReference: string;
    amount: string;
    expiresAt?: string;
    sealedCard: string;
  }): Promise<CardChargeState> {
    const card = this.sealer.openJson<CardPaymentRequest>(command.sealedCard, command.checkoutReference);
    const fingerprint = this.fingerprints.of(card.cardNumber);
    if (command.expiresAt && Date.parse(command.expiresAt) <= Date.now()) {
      throw apiError('CHECKOUT_NOT_PAYABLE', `Checkout ${command.checkoutReference} has expired`);
    }
    // A live business is refused here, before a charge exists, when no live network is connected.
    this.networks.for(command.mode);
    let steps = this.verification.steps(card.cardNumber, command.mode);
    let attemptsLeft = maxAttempts;
    if (steps[0] === 'pin' && card.pin !== undefined) {
      if (card.pin === SANDBOX_PIN) steps = steps.slice(1);
      else attemptsLeft -= 1;
    }
    const id = newUlid();
    const held: HeldCard = { pan: card.cardNumber, expiryDate: card.expiryDate };
    const first: ChargeRow = {
      id,
      checkout_reference: command.checkoutReference,
      business_id: command.businessId,
      business_mode: command.mode,
      amount: command.amount,
      masked_pan: mask(card.cardNumber),
      card_fingerprint: fingerprint,
      steps,
      attempts_left: attemptsLeft,
      expires_at: command.expiresAt ? new Date(command.expiresAt) : null,
      status: 'PROCESSING',
      decline_reason: null,
      sealed_card: steps.length > 0 ? this.sealer.seal(JSON.stringify(held), id) : null,
    };
    const started = steps.length > 0 ? await this.startWithSteps(first) : await this.startSending(first, held);
    if (started) return this.afterCommit(started);
    return this.dataSource.transaction(async (em) => {
      const existing = await this.charges.lockForCheckout(em, command.businessId, command.checkoutReference);
      if (!existing) throw apiError('CHARGE_IN_PROGRESS', 'A card charge for this checkout is already in progress');
      // The same card again is a retry: answer where the charge stands. Another card waits its turn.
      if (existing.status !== 'PROCESSING' || existing.card_fingerprint === fingerprint) return toState(existing);
      throw apiError('CHARGE_IN_PROGRESS', 'A card charge for this checkout is already in progress');
    });
  }

  /** A card with steps to walk first: the charge alone, one statement. */
  private async startWithSteps(charge: ChargeRow): Promise<ChargeStep | null> {
    const inserted = await this.charges.insertFirst(this.dataSource.manager, charge);
    return inserted ? { charge: inserted } : null;
  }

  /** A card that asks for nothing: the charge and its network request in one statement. */
  private async startSending(charge: ChargeRow, card: HeldCard): Promise<ChargeStep | null> {
    const draft = await this.authoriser.draft(this.dataSource.manager, paymentOf(charge, card));
    const inserted = await this.charges.insertFirstSending(charge, draft.values);
    return inserted ? { charge: inserted.charge, authorisation: draft.written(inserted.drawn) } : null;
  }

  /**
   * A card payment or step sent again once its checkout ended: the checkout's charge as it
   * ended, when it was made with this card (any card for a step). A charge still in progress
   * answers null: only a step sent while the checkout was open may move it.
   */
  async outcome(command: {
    businessId: string;
    checkoutReference: string;
    cardFingerprint?: string;
  }): Promise<CardChargeState | null> {
    const charge = await this.charges.findForCheckout(command.businessId, command.checkoutReference);
    if (!charge || charge.status === 'PROCESSING') return null;
    const sameCard = command.cardFingerprint === undefined || charge.card_fingerprint === command.cardFingerprint;
    return sameCard ? toState(charge) : null;
  }

  async authorize(command: {
    businessId: string;
    checkoutReference: string;
    sealedAuthorization: string;
  }): Promise<CardChargeState> {
    const answer = this.sealer.openJson<CardAuthorizationRequest>(
      command.sealedAuthorization,
      command.checkoutReference,
    );
    const step = await this.dataSource.transaction(async (em): Promise<ChargeStep> => {
      const charge = await this.charges.lockForCheckout(em, command.businessId, command.checkoutReference);
      if (!charge) throw apiError('TRANSACTION_NOT_FOUND', `No card charge for ${command.checkoutReference}`);
      // Ended, or with the network: no step is asked for.
      if (charge.status !== 'PROCESSING' || charge.steps.length === 0) return { charge };
      if (pastDeadline(charge)) return { charge: await this.finish(em, charge, 'FAILED', checkoutExpired) };
      const expected = charge.steps[0];
      const given = answeredSteps(answer);
      // 3-D Secure is answered on the bank's page, never here.
      if (given.length !== 1 || given[0] !== expected) {
        const how =
          expected === '3ds'
            ? 'complete 3-D Secure at the redirectUrl'
            : `send ${expected === 'avs' ? 'address' : expected}`;
        throw apiError('UNEXPECTED_AUTHORIZATION', `This charge expects ${expected} next: ${how}`);
      }
      const correct =
        expected === 'pin' ? answer.pin === SANDBOX_PIN : expected === 'otp' ? answer.otp === SANDBOX_OTP : true;
      if (!correct) return { charge: await this.wrongAnswer(em, charge) };
      // Each step has its own three tries.
      return this.advance(em, { ...charge, steps: charge.steps.slice(1), attempts_left: maxAttempts });
    });
    return this.afterCommit(step);
  }

  /** The sandbox bank's 3-D Secure page answered. */
  async complete3ds(chargeId: string, checkoutReference: string, approved: boolean): Promise<CardChargeState> {
    const step = await this.dataSource.transaction(async (em): Promise<ChargeStep> => {
      const charge = await this.charges.lockForAcs(em, chargeId, checkoutReference);
      if (!charge) throw apiError('TRANSACTION_NOT_FOUND', `No card charge ${chargeId}`);
      if (charge.status !== 'PROCESSING' || charge.steps[0] !== '3ds') return { charge };
      if (pastDeadline(charge)) return { charge: await this.finish(em, charge, 'FAILED', checkoutExpired) };
      if (!approved) {
        return { charge: await this.finish(em, charge, 'FAILED', '3-D Secure authentication was declined') };
      }
      return this.advance(em, { ...charge, steps: charge.steps.slice(1) });
    });
    return this.afterCommit(step);
  }

  /** Saves the remaining steps; with none left, the charge goes to the network with the card it held. */
  private async advance(em: EntityManager, charge: ChargeRow): Promise<ChargeStep> {
    if (charge.steps.length > 0) return { charge: await this.charges.save(em, charge) };
    if (!charge.sealed_card) {
      // A charge begun before the card network was connected holds no card to send.
      return { charge: await this.finish(em, charge, 'FAILED', 'The card details are no longer held; pay again') };
    }
    const held = this.sealer.openJson<HeldCard>(charge.sealed_card, charge.id);
    return this.authorise(em, await this.charges.save(em, charge), held);
  }

  /** Writes the network request in this transaction: it is sent once the transaction commits. */
  private async authorise(em: EntityManager, charge: ChargeRow, card: HeldCard): Promise<ChargeStep> {
    return { charge, authorisation: await this.authoriser.prepare(em, paymentOf(charge, card)) };
  }

  /** Sends the request a transaction wrote, if any, and answers with the charge as the network left it. */
  private async afterCommit({ charge, authorisation }: ChargeStep): Promise<CardChargeState> {
    if (!authorisation) return toState(charge);
    const decision = await this.authoriser.send(authorisation);
    // Decided elsewhere (another answer, the sweep): read as it ended.
    const decided = decision
      ? endedAs(charge, decision)
      : await this.charges.findForCheckout(charge.business_id, charge.checkout_reference);
    return toState(decided ?? charge);
  }

  /** The network decided the charge's request (CardAuthoriser calls this in its transaction). */
  async settle(em: EntityManager, request: NetworkRequestRow, decision: PaymentDecision): Promise<boolean> {
    const { business_id: businessId, payment_reference: reference } = request;
    const ended = decision.approved
      ? await this.charges.endIfProcessing(em, businessId, reference, 'SUCCESS', null)
      : await this.charges.endIfProcessing(em, businessId, reference, 'FAILED', decision.reason);
    if (ended?.status === 'SUCCESS') await this.announceSuccess(em, ended);
    return ended !== undefined;
  }

  private async wrongAnswer(em: EntityManager, charge: ChargeRow): Promise<ChargeRow> {
    const attemptsLeft = charge.attempts_left - 1;
    if (attemptsLeft <= 0) {
      return this.finish(
        em,
        { ...charge, attempts_left: 0 },
        'FAILED',
        `Too many wrong ${charge.steps[0].toUpperCase()} attempts`,
      );
    }
    return this.charges.save(em, { ...charge, attempts_left: attemptsLeft });
  }

  /**
   * Ends the charge. A success also tells outlet-service, in the same transaction, to book the
   * money, and hands it the gateway's request: outlet-service answers it with the outcome.
   */
  private async finish(
    em: EntityManager,
    charge: ChargeRow,
    status: 'SUCCESS' | 'FAILED',
    reason: string | null,
  ): Promise<ChargeRow> {
    const ended = await this.charges.save(em, { ...charge, steps: [], status, decline_reason: reason });
    if (status === 'SUCCESS') await this.announceSuccess(em, ended);
    return ended;
  }

  private async announceSuccess(em: EntityManager, charge: ChargeRow): Promise<void> {
    await this.outbox.enqueue(em, succeeded(charge, replyAddressToForward()));
    replyForwarded();
  }
}

/**
 * card.charge.succeeded: outlet-service books the money from it. With the reply address of the
 * request that captured the card, it also answers that request, with this charge's state.
 */
function succeeded(
  charge: ChargeRow,
  replyAddress: Record<string, string> | null,
): NewEvent<CardChargeSucceededV1Payload> {
  return {
    topic: Topics.cardCharges,
    type: CardChargeSucceededV1,
    key: charge.business_id,
    businessId: charge.business_id,
    payload: {
      chargeId: charge.id,
      businessId: charge.business_id,
      checkoutReference: charge.checkout_reference,
      amount: charge.amount,
      maskedPan: charge.masked_pan,
      succeededAt: new Date().toISOString(),
      ...(replyAddress ? { answer: toState(charge) } : {}),
    },
    ...(replyAddress ? { headers: replyAddress, awaited: true } : {}),
  };
}

/** A checkout's card payment as the network step sends it. */
function paymentOf(charge: ChargeRow, card: HeldCard): PaymentForNetwork {
  const [month, year] = card.expiryDate.split('/');
  return {
    purpose: 'checkout',
    paymentReference: charge.checkout_reference,
    businessId: charge.business_id,
    mode: charge.business_mode ?? 'test',
    kind: 'purchase',
    amount: charge.amount,
    card: { pan: card.pan, expiry: `${year}${month}`, accountType: 'default', entryMode: 'not-present' },
    terminal: { kind: 'checkout' },
    acceptorName: charge.business_id,
  };
}

/** A charge as the network's decision ends it. */
function endedAs(charge: ChargeRow, decision: PaymentDecision): ChargeRow {
  return decision.approved
    ? { ...charge, steps: [], status: 'SUCCESS', decline_reason: null }
    : { ...charge, steps: [], status: 'FAILED', decline_reason: decision.reason };
}

const checkoutExpired = 'The checkout expired before the card was verified';

/** A step answered after the checkout's expiry must not complete a payment the checkout refuses. */
function pastDeadline(charge: ChargeRow): boolean {
  return charge.expires_at !== null && charge.expires_at.getTime() <= Date.now();
}

function mask(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
}

function toState(charge: ChargeRow): CardChargeState {
  const nextAction: NextAction = charge.status === 'PROCESSING' ? (charge.steps[0] ?? 'none') : 'none';
  const base = {
    chargeId: charge.id,
    checkoutReference: charge.checkout_reference,
    businessId: charge.business_id,
    maskedPan: charge.masked_pan,
    amount: charge.amount,
    reference: charge.checkout_reference,
    transactionStatus: charge.status,
    nextAction,
  };
  if (charge.status === 'SUCCESS') return { ...base, message: 'Payment successful' };
  if (charge.status === 'FAILED') return { ...base, message: charge.decline_reason ?? 'Payment failed' };
  if (nextAction === 'none') return { ...base, message: 'The card network is authorising the payment' };
  const wrongTries = maxAttempts - charge.attempts_left;
  const messages: Record<Exclude<NextAction, 'none'>, string> = {
    pin: 'Enter the card PIN',
    otp: 'Enter the one-time password sent to the phone number on the card',
    avs: 'Enter the billing address of the card',
    '3ds': 'Complete 3-D Secure on your bank page',
    birthday: 'Enter the date of birth of the cardholder',
    phone: 'Enter the phone number registered with the card',
  };
  return {
    ...base,
    message:
      wrongTries > 0
        ? `Wrong ${nextAction.toUpperCase()}: ${charge.attempts_left} attempts left. ${messages[nextAction as Exclude<NextAction, 'none'>]}`
        : messages[nextAction as Exclude<NextAction, 'none'>],
    ...(wrongTries > 0 ? { attemptsLeft: charge.attempts_left } : {}),
    ...(nextAction === 'avs' ? { fields: avsFields } : {}),
  };
}
