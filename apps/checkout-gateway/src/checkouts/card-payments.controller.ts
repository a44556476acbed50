import { Body, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CardAuthorizationRequest, CardChargeResponse, CardPaymentRequest } from '@payments/contracts';
import { Answers } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { CardPaymentsService } from './card-payments.service';

@PartnerController('checkout/:reference', 'checkout')
export class CardPaymentsController {
  constructor(private readonly payments: CardPaymentsService) {}

  @Post('card-payment')
  @ApiOperation({ summary: 'Charge a card for the checkout; the answer says which verification comes next' })
  @Answers(CardChargeResponse, 'Card charge processed', 404, 422, 503)
  pay(@CurrentBusiness() business: Business, @Param('reference') reference: string, @Body() card: CardPaymentRequest) {
    return this.payments.pay(business, reference, card);
  }

  @Post('card-authorization')
  @ApiOperation({ summary: 'Answer the verification the last answer asked for: pin, otp, address, birthday or phone' })
  @Answers(CardChargeResponse, 'Card verification processed', 404, 422, 503)
  authorize(
    @CurrentBusiness() business: Business,
    @Param('reference') reference: string,
    @Body() answer: CardAuthorizationRequest,
  ) {
    return this.payments.authorize(business, reference, answer);
  }
}
