import { Injectable } from '@nestjs/common';
import {
  answeredSteps,
  answerFields,
  CardAuthorizationRequest,
  CardChargeResponse,
  CardChargeState,
  CardPaymentRequest,
  CheckoutPaymentResult,
  CheckoutResponse,
} from '@payments/contracts';
import { CardFingerprints, Sealer, sealerFor } from '@payments/platform-crypto';
import { DomainError, requireSandboxRail, ValidationFailedError } from '@payments/platform-envelope';

import { Business } from '../businesses/business.entity';
import { Onboarding } from '../businesses/onboarding';
import { CardTestingDefence } from '../card-testing/card-testing.defence';
import { Env } from '../config/env';
import { CardServiceClient } from '../kafka-clients/card-service.client';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { CheckoutsService, notPayable, requirePayable } from './checkouts.service';

/**
 * Card payments on a checkout. Card fields are sealed before they leave this process; the
 * charge itself lives in card-processor. No step is sent once the checkout has ended, and a
 * charge's end is settled with the ledger before the customer hears it: a declined card asks
 * the ledger to close the checkout, a captured one is booked (or, when the checkout ended
 * meanwhile, kept aside for a refund and answered as not paid).
 */
@Injectable()
export class CardPaymentsService {
  private readonly sealer: Sealer;
  private readonly fingerprints: CardFingerprints;

  constructor(
    private readonly cards: CardServiceClient,
    private readonly outlets: OutletServiceClient,
    private readonly checkouts: CheckoutsService,
    private readonly cardTesting: CardTestingDefence,
    private readonly onboarding: Onboarding,
    private readonly env: Env,
  ) {
    this.sealer = sealerFor(Sealer, env.CARD_DATA_KEY, env);
    this.fingerprints = new CardFingerprints(env.CARD_FINGERPRINT_KEY);
  }

  /**
   * Without a live card network (LIVE_CARD_PAYMENTS), a live business is refused before any
   * charge exists, not declined. An attempt that looks like card testing is refused before card-processor hears
   * of it; `payerAddress` is the payer's own, known when the hosted page sent the card. No card
   * is charged before outlet-service knows the business: it books the capture. The same card
   * sent again after its charge ended the checkout is answered with how that charge ended.
   */
  async pay(
    business: Business,
    reference: string,
    card: CardPaymentRequest,
    payerAddress?: string,
  ): Promise<CardChargeResponse> {
    if (!this.env.LIVE_CARD_PAYMENTS) requireSandboxRail(business.mode, 'Card payments');
    const found = await this.checkouts.get(business.id, reference);
    if (found.transactionStatus !== 'PROCESSING') return this.payEnded(business, found, card, payerAddress);
    const checkout = requirePayable(found, 'card');
    await this.onboarding.require(business, 'outlet-service');
    await this.cardTesting.admit({
      businessId: business.id,
      checkoutReference: reference,
      cardNumber: card.cardNumber,
      payerAddress,
    });
    const state = await this.cards.send({
      type: 'startCharge',
      businessId: business.id,
      mode: business.mode,
      checkoutReference: reference,
      amount: checkout.amount,
      expiresAt: checkout.expiresAt,
      sealedCard: this.sealer.seal(JSON.stringify(card), reference),
    });
    await this.cardTesting.answered(business.id, reference, state.transactionStatus === 'FAILED');
    return this.record(state, checkout);
  }

  async authorize(
    business: Business,
    reference: string,
    answer: CardAuthorizationRequest,
  ): Promise<CardChargeResponse> {
    if (answeredSteps(answer).length !== 1) {
      throw new ValidationFailedError([
        { field: 'body', messages: [`send exactly one of ${Object.keys(answerFields).join(', ')}`] },
      ]);
    }
    const found = await this.checkouts.get(business.id, reference);
    if (found.transactionStatus !== 'PROCESSING') {
      // A step sent again once the charge ended: how it ended. No step moves a charge after its checkout ended.
      const ended = await this.cards.send({
        type: 'chargeOutcome',
        businessId: business.id,
        checkoutReference: reference,
      });
      if (ended) return this.record(ended, found, { retry: true });
    }
    const checkout = requirePayable(found, 'card');
    const state = await this.cards.send({
      type: 'authorize',
      businessId: business.id,
      checkoutReference: reference,
      sealedAuthorization: this.sealer.seal(JSON.stringify(answer), reference),
    });
    return this.record(state, checkout);
  }

  /**
   * A card sent to a checkout that has ended. When it is the card of the checkout's charge, and
   * that charge ended (it paid the checkout, was declined, or was captured after the checkout
   * ended and is kept aside for a refund), this is a retry: it is answered as the first request
   * was. Any other card is refused as the ended checkout refuses it. The attempt is counted by
   * the card-testing defence as any other (a retry of one it let through is free), so an ended
   * checkout is no oracle for card numbers.
   */
  private async payEnded(
    business: Business,
    checkout: CheckoutResponse,
    card: CardPaymentRequest,
    payerAddress?: string,
  ): Promise<CardChargeResponse> {
    const attempt = { businessId: business.id, checkoutReference: checkout.reference };
    await this.cardTesting.admit({ ...attempt, cardNumber: card.cardNumber, payerAddress });
    const ended = await this.cards.send({
      type: 'chargeOutcome',
      ...attempt,
      cardFingerprint: this.fingerprints.of(card.cardNumber),
    });
    await this.cardTesting.answered(business.id, checkout.reference, ended === null);
    if (!ended) throw notPayable(checkout);
    return this.record(ended, checkout, { retry: true });
  }

  /**
   * The sandbox bank's 3-D Secure page answered for a charge. An approval for a checkout that
   * has ended is not passed on: the card is not captured. Returns the checkout to show next.
   */
  async complete3ds(chargeId: string, checkoutReference: string, approved: boolean): Promise<{ reference: string }> {
    const checkout = await this.checkouts.findForPage(checkoutReference);
    const open = checkout?.transactionStatus === 'PROCESSING' && Date.parse(checkout.expiresAt) > Date.now();
    if (!open) return { reference: checkoutReference };
    return this.record(await this.cards.send({ type: 'complete3ds', chargeId, checkoutReference, approved }));
  }

  /** `retry`: the charge ended before this request, and its checkout with it; nothing is left to close. */
  private async record(
    state: CardChargeState,
    checkout?: CheckoutResponse,
    { retry = false } = {},
  ): Promise<CardChargeResponse> {
    const {
      chargeId,
      checkoutReference,
      businessId,
      maskedPan,
      amount: _amount,
      checkout: booked,
      ...response
    } = state;
    if (state.transactionStatus === 'FAILED' && !retry) {
      await this.cardTesting.declined(businessId, checkoutReference);
      await this.checkouts.close([
        { businessId, checkoutReference, comment: state.message, method: 'card', maskedCard: maskedPan },
      ]);
    }
    if (state.transactionStatus === 'SUCCESS') {
      // Usually outlet-service booked the capture and answered with card-processor's answer; a
      // charge that succeeded earlier (this is a retry) is asked of the ledger, which answers as before.
      const result = booked ?? (await this.bookedCharge(state));
      await this.checkouts.applyOutcome(result.outcome, checkout);
      if (!result.accepted) {
        return {
          ...response,
          transactionStatus: 'FAILED',
          message:
            'The checkout had already ended, so this card payment did not pay it; the amount will be refunded to the card',
        };
      }
    }
    if (state.nextAction === '3ds') {
      const url = new URL(`/sandbox/3ds/${encodeURIComponent(chargeId)}`, this.env.CHECKOUT_URL);
      url.searchParams.set('checkoutReference', checkoutReference);
      response.redirectUrl = url.toString();
    }
    return response;
  }

  /** How the ledger booked a charge card-processor reports captured. */
  private bookedCharge(state: CardChargeState): Promise<CheckoutPaymentResult> {
    return this.outlets
      .send({
        type: 'settleCheckoutPayment',
        businessId: state.businessId,
        checkoutReference: state.checkoutReference,
        amount: state.amount,
        method: 'card',
        paymentId: state.chargeId,
        maskedCard: state.maskedPan,
      })
      .catch((error: unknown) => {
        // The card is captured and its event will book it: until the ledger answers, the outcome is not known.
        if (error instanceof DomainError && error.status === 503) {
          throw recording();
        }
        throw error;
      });
  }
}

function recording(): DomainError {
  return new DomainError(
    'PROCESSOR_UNAVAILABLE',
    'The payment is being recorded; retrying the same request is safe and answers how it ended',
    503,
  );
}
