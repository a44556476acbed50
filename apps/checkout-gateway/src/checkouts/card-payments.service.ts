import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CardAuthorizationRequest, CardChargeResponse, CardChargeState, CardPaymentRequest } from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { apiError, ValidationFailedError } from '@payments/platform-envelope';
import { DataSource } from 'typeorm';
import { Business } from '../businesses/business.entity';
import { Env } from '../config/env';
import { CardServiceClient } from '../services/card-service.client';
import { CheckoutsService } from './checkouts.service';

/**
 * Card payments on a checkout. Card fields are sealed before they leave this process; the
 * charge itself lives in card-processor, and its end is recorded on the checkout (status,
 * masked card, checkout.success/failed) exactly once.
 */
@Injectable()
export class CardPaymentsService {
  private readonly sealer: Sealer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cards: CardServiceClient,
    private readonly checkouts: CheckoutsService,
    private readonly env: Env,
  ) {
    this.sealer = new Sealer(env.CARD_DATA_KEY);
  }

  async pay(business: Business, reference: string, card: CardPaymentRequest): Promise<CardChargeResponse> {
    const checkout = await this.checkouts.get(business.id, reference);
    if (checkout.transactionStatus !== 'PROCESSING') throw apiError('CHECKOUT_NOT_PAYABLE', `Checkout ${reference} is ${checkout.transactionStatus.toLowerCase()} and cannot be charged`);
    if (!checkout.paymentMethod.includes('card')) throw apiError('CHECKOUT_NOT_PAYABLE', `Checkout ${reference} does not accept cards`);
    const state = await this.cards.send<CardChargeState>({
      type: 'startCharge',
      businessId: business.id,
      mode: business.mode,
      checkoutReference: reference,
      amount: checkout.amount,
      expiresAt: checkout.expiresAt,
      sealedCard: this.sealer.seal(JSON.stringify(card), reference),
    });
    return this.record(state);
  }

  async authorize(business: Business, reference: string, answer: CardAuthorizationRequest): Promise<CardChargeResponse> {
    const given = (['pin', 'otp', 'birthday', 'phone', 'address'] as const).filter((field) => answer[field] !== undefined);
    if (given.length !== 1) {
      throw new ValidationFailedError([{ field: 'body', messages: ['send exactly one of pin, otp, birthday, phone, address'] }]);
    }
    await this.checkouts.get(business.id, reference);
    const state = await this.cards.send<CardChargeState>({
      type: 'authorize',
      businessId: business.id,
      checkoutReference: reference,
      sealedAuthorization: this.sealer.seal(JSON.stringify(answer), reference),
    });
    return this.record(state);
  }

  /** The sandbox bank's 3-D Secure page answered for a charge. */
  async complete3ds(chargeId: string, approved: boolean): Promise<CardChargeResponse> {
    return this.record(await this.cards.send<CardChargeState>({ type: 'complete3ds', chargeId, approved }));
  }

  private async record(state: CardChargeState): Promise<CardChargeResponse> {
    if (state.transactionStatus !== 'PROCESSING') {
      await this.checkouts.finish(state.businessId, state.checkoutReference, state.transactionStatus, {
        usedMethod: 'card',
        maskedCard: state.maskedPan,
        comment: state.message,
      });
    }
    const { chargeId, checkoutReference: _reference, businessId: _business, maskedPan: _masked, ...response } = state;
    if (state.nextAction === '3ds') response.redirectUrl = new URL(`/sandbox/3ds/${chargeId}`, this.env.CHECKOUT_URL).toString();
    return response;
  }
}
