import { Body, Controller, Get, Header, Param, Post, Query, Redirect } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AcceptsFormPosts, apiError, RawResponse } from '@payments/platform-envelope';

import { Env } from '../config/env';
import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { CardPaymentsService } from './card-payments.service';
import { checkoutLink } from './checkout-link';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
button{font-size:1rem;padding:.75rem 1.25rem;margin:.25rem;border-radius:.5rem;border:1px solid #1a1a1a;background:#fff;cursor:pointer}
button:focus{outline:3px solid #1d4ed8;outline-offset:2px}</style></head>
<body><h1>${title}</h1>${body}</body></html>`;

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The sandbox bank's 3-D Secure page (an ACS simulator): the customer approves or declines,
 * and that completes the verification step of the charge. Test keys only reach it, since only
 * sandbox charges are ever redirected here.
 */
@ApiExcludeController()
@Controller('sandbox/3ds')
@LimitedPerClientAddress()
export class SandboxAcsController {
  constructor(
    private readonly payments: CardPaymentsService,
    private readonly env: Env,
  ) {}

  @Get(':chargeId')
  @RawResponse()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
  show(@Param('chargeId') chargeId: string, @Query('checkoutReference') checkoutReference: unknown): string {
    const action = escapeAttribute(
      `/sandbox/3ds/${encodeURIComponent(chargeId)}?${new URLSearchParams({ checkoutReference: String(checkoutReference ?? '') })}`,
    );
    return page(
      'Sandbox bank: confirm this payment',
      `<p>This page stands in for your bank's 3-D Secure check.</p>
<form method="post" action="${action}"><input type="hidden" name="decision" value="approve"><button type="submit">Approve payment</button></form>
<form method="post" action="${action}"><input type="hidden" name="decision" value="decline"><button type="submit">Decline payment</button></form>`,
    );
  }

  /** The bank answered: back to the checkout page, which shows how the payment ended. */
  @Post(':chargeId')
  @RawResponse()
  @AcceptsFormPosts()
  @Redirect()
  async decide(
    @Param('chargeId') chargeId: string,
    @Query('checkoutReference') checkoutReference: unknown,
    @Body() body: { decision?: string },
  ): Promise<{ url: string; statusCode: number }> {
    if (typeof checkoutReference !== 'string' || !/^CHK-[0-9A-Z]{26}$/.test(checkoutReference)) {
      throw apiError('TRANSACTION_NOT_FOUND', 'This 3-D Secure link does not name a checkout');
    }
    const result = await this.payments.complete3ds(chargeId, checkoutReference, body?.decision === 'approve');
    return { url: checkoutLink(this.env.CHECKOUT_URL, result.reference), statusCode: 303 };
  }
}
