import { applyDecorators, Body, Controller, Get, Header, HttpCode, Ip, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CardAuthorizationRequest, CardPaymentRequest, HostedCheckoutView } from '@payments/contracts';
import { apiError, RawResponse, SuccessMessage } from '@payments/platform-envelope';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { HostedCheckoutService } from './hosted-checkout.service';

/** 200 in the envelope with `message`, never cached: each answer is about one checkout, now. */
const PageAnswer = (message: string) =>
  applyDecorators(HttpCode(200), Header('Cache-Control', 'no-store'), SuccessMessage(message));

/**
 * The hosted page's own API: no keys, the reference in the page link is the credential, and
 * every route acts on that checkout only. JSON bodies only, and no CORS, so another site's
 * page cannot drive it from a customer's browser. Not for partners: they use the keyed routes.
 * What each route answers is HostedCheckoutService's type.
 */
@ApiExcludeController()
@Controller('checkout/session/:reference')
@LimitedPerClientAddress()
export class HostedCheckoutController {
  constructor(private readonly hosted: HostedCheckoutService) {}

  @Get()
  @PageAnswer('Checkout retrieved')
  async view(@Param('reference') reference: string): Promise<HostedCheckoutView> {
    const view = await this.hosted.view(reference);
    if (!view) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${reference} not found`);
    return view;
  }

  @Post('card-payment')
  @PageAnswer('Card charge processed')
  payByCard(@Param('reference') reference: string, @Body() card: CardPaymentRequest, @Ip() payerAddress: string) {
    return this.hosted.payByCard(reference, card, payerAddress);
  }

  @Post('card-authorization')
  @PageAnswer('Card verification processed')
  authorizeCard(@Param('reference') reference: string, @Body() answer: CardAuthorizationRequest) {
    return this.hosted.authorizeCard(reference, answer);
  }

  @Post('pay-with-transfer')
  @PageAnswer('Transfer details ready')
  transferAccount(@Param('reference') reference: string) {
    return this.hosted.transferAccount(reference);
  }

  @Get('qr.svg')
  @RawResponse()
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Security-Policy', "default-src 'none'")
  qr(@Param('reference') reference: string): Promise<string> {
    return this.hosted.qrSvg(reference);
  }
}
