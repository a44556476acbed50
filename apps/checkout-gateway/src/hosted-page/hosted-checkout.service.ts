import { Injectable } from '@nestjs/common';
import {
  CardAuthorizationRequest,
  CardChargeResponse,
  CardPaymentRequest,
  CheckoutAccount,
  HostedCheckoutView,
} from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';

import { Business } from '../businesses/business.entity';
import { BusinessesService } from '../businesses/businesses.service';
import { CardPaymentsService } from '../checkouts/card-payments.service';
import { CheckoutsService } from '../checkouts/checkouts.service';
import { TransferAndQrService } from '../checkouts/transfer-and-qr.service';

/**
 * What the hosted page may do for the checkout in its link, without API keys: the same
 * payment flows a partner's server drives, each scoped to that one checkout's business.
 */
@Injectable()
export class HostedCheckoutService {
  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly businesses: BusinessesService,
    private readonly cards: CardPaymentsService,
    private readonly methods: TransferAndQrService,
  ) {}

  async view(reference: string): Promise<HostedCheckoutView | null> {
    return this.checkouts.findForPage(reference);
  }

  /** `payerAddress`: where the payer's browser sent the card from, for the card-testing defence. */
  async payByCard(reference: string, card: CardPaymentRequest, payerAddress: string): Promise<CardChargeResponse> {
    return this.cards.pay(await this.owner(reference), reference, card, payerAddress);
  }

  async authorizeCard(reference: string, answer: CardAuthorizationRequest): Promise<CardChargeResponse> {
    return this.cards.authorize(await this.owner(reference), reference, answer);
  }

  async transferAccount(reference: string): Promise<CheckoutAccount> {
    return this.methods.bankAccount(await this.owner(reference), reference);
  }

  async qrSvg(reference: string): Promise<string> {
    return this.methods.qrSvg(await this.owner(reference), reference);
  }

  private async owner(reference: string): Promise<Business> {
    const business = await this.businesses.findByCheckout(reference);
    if (!business) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${reference} not found`);
    return business;
  }
}
