import { Body, Param } from '@nestjs/common';
import { CardAuthorizationRequest, CardChargeResponse, CardPaymentRequest } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { CardPaymentsService } from './card-payments.service';

@PartnerController('checkout/:reference', 'checkout')
export class CardPaymentsController {
  constructor(private readonly payments: CardPaymentsService) {}

  @Route.post('card-payment', 'Charge a card for the checkout; the answer says which verification comes next')
  @Answers(CardChargeResponse, 'Card charge processed', 403, 404, 422, 503)
  payByCard(
    @CurrentBusiness() business: Business,
    @Param('reference') reference: string,
    @Body() card: CardPaymentRequest,
  ) {
    return this.payments.pay(business, reference, card);
  }

  @Route.post(
    'card-authorization',
    'Answer the verification the last answer asked for: pin, otp, address, birthday or phone',
  )
  @Answers(CardChargeResponse, 'Card verification processed', 404, 422, 503)
  authorizeCard(
    @CurrentBusiness() business: Business,
    @Param('reference') reference: string,
    @Body() answer: CardAuthorizationRequest,
  ) {
    return this.payments.authorize(business, reference, answer);
  }
}
