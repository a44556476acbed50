import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RawResponse } from '@payments/platform-envelope';
import type { FastifyReply } from 'fastify';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { HostedCheckoutService } from './hosted-checkout.service';
import { PageAssets } from './page-assets';
import { renderCheckoutPage, renderNotFoundPage } from './page-html';

/**
 * Scripts, styles, images and requests come from this origin only; no inline code. Framing
 * stays allowed because the spec lets partners embed the checkout link.
 */
export const pageContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
].join('; ');

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': pageContentSecurityPolicy,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** The page a customer lands on from a checkout link, and its static assets. */
@ApiExcludeController()
@Controller('checkout')
export class HostedPageController {
  constructor(
    private readonly hosted: HostedCheckoutService,
    private readonly assets: PageAssets,
  ) {}

  @Get()
  @RawResponse()
  @LimitedPerClientAddress()
  async page(@Query('checkoutReference') reference: unknown, @Res() reply: FastifyReply): Promise<void> {
    const view =
      typeof reference === 'string' && reference.length > 0 && reference.length <= 64
        ? await this.hosted.view(reference)
        : null;
    const html = view ? renderCheckoutPage(view, this.assets) : renderNotFoundPage(this.assets);
    await reply
      .status(view ? 200 : 404)
      .headers(pageHeaders)
      .send(html);
  }

  @Get('assets/:name')
  @RawResponse()
  async asset(@Param('name') name: string, @Query('v') version: unknown, @Res() reply: FastifyReply): Promise<void> {
    const asset = this.assets.get(name);
    if (!asset) {
      await reply
        .status(404)
        .headers({ 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
        .send('Not found');
      return;
    }
    // A versioned URL never changes content, so browsers keep it; an unversioned one is revalidated.
    const caching = version === asset.version ? 'public, max-age=31536000, immutable' : 'no-cache';
    await reply
      .headers({ 'content-type': asset.contentType, 'cache-control': caching, 'x-content-type-options': 'nosniff' })
      .send(asset.body);
  }
}
