import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { DashboardAssets } from './dashboard-assets';
import { DashboardRequests, page, redirect, shownTo } from './dashboard-requests';
import { OverviewReader } from './overview';
import { renderOverview } from './overview-html';

/** A signed-in member's home (the business's overview), and the pages' stylesheet. */
@ApiExcludeController()
@Controller('dashboard')
@LimitedPerClientAddress()
export class DashboardController {
  constructor(
    private readonly assets: DashboardAssets,
    private readonly requests: DashboardRequests,
    private readonly overviews: OverviewReader,
  ) {}

  @Get()
  @RawResponse()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.pageMember(request);
    if ('sendTo' in signedIn) return redirect(reply, signedIn.sendTo);
    const overview = await this.overviews.read(signedIn.member.business_id);
    const shown = { ...shownTo(signedIn), overview };
    await page(reply, 200, renderOverview(shown, this.requests.version));
  }

  @Get('assets/dashboard.css')
  @RawResponse()
  async stylesheet(@Query('v') version: unknown, @Res() reply: FastifyReply): Promise<void> {
    const caching = version === this.assets.version ? 'public, max-age=31536000, immutable' : 'no-cache';
    await reply
      .headers({
        'content-type': 'text/css; charset=utf-8',
        'cache-control': caching,
        'x-content-type-options': 'nosniff',
      })
      .send(this.assets.stylesheet);
  }
}
