import { Body, Param } from '@nestjs/common';
import { CheckoutResponse, CreateCheckoutRequest, CreateCheckoutResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { AcceptsIdempotencyKey, IdempotencyKey } from '../common/idempotency-key';
import { CheckoutsService } from './checkouts.service';

@PartnerController('payin/charge/requests', 'checkout')
export class CheckoutsController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Route.post('', 'Start a checkout: a reference and the hosted page link to send the customer to')
  @AcceptsIdempotencyKey()
  @Answers(CreateCheckoutResponse, 'Checkout created successfully', 422)
  createCheckout(
    @CurrentBusiness() business: Business,
    @Body() request: CreateCheckoutRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ) {
    return this.checkouts.create(business, request, idempotencyKey);
  }

  @Route.get(':reference', 'The checkout as it is now: verify its status before you fulfil')
  @Answers(CheckoutResponse, 'Transaction retrieved', 404)
  getCheckout(@CurrentBusiness() business: Business, @Param('reference') reference: string) {
    return this.checkouts.get(business.id, reference);
  }
}
