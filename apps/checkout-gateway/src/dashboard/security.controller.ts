import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { AcceptsFormPosts, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toString as qrCode } from 'qrcode';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { renderSecurity, renderSetUp } from './dashboard-html';
import {
  DashboardRequests,
  Form,
  mustSetUpTwoFactor,
  page,
  problems,
  redirect,
  shownTo,
  SignedIn,
} from './dashboard-requests';
import { TwoFactor, TwoFactorSetUp } from './two-factor';

/** A member's second factor, and an owner's requirement of one for everyone. */
@ApiExcludeController()
@Controller('dashboard')
@LimitedPerClientAddress()
export class SecurityController {
  constructor(
    private readonly twoFactor: TwoFactor,
    private readonly requests: DashboardRequests,
  ) {}

  @Get('security')
  @RawResponse()
  async security(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    const notice = mustSetUpTwoFactor(signedIn.member) ? problems.mustSetUp : undefined;
    await page(reply, 200, renderSecurity({ ...shownTo(signedIn), notice }, this.requests.version));
  }

  @Post('two-factor/set-up')
  @RawResponse()
  @AcceptsFormPosts()
  async setUpTwoFactor(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (!this.requests.changeAllowed(request, signedIn.token, form)) return redirect(reply, '/dashboard/security');
    const setUp = await this.twoFactor.setUp(signedIn.member);
    if (!setUp) return redirect(reply, '/dashboard/security');
    await this.setUpPage(reply, signedIn, setUp, 200);
  }

  @Post('two-factor/confirm')
  @RawResponse()
  @AcceptsFormPosts()
  async confirmTwoFactor(
    @Req() request: FastifyRequest,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (!this.requests.changeAllowed(request, signedIn.token, form)) return redirect(reply, '/dashboard/security');
    const address = clientAddressKey(request.ip);
    if (await this.twoFactor.confirm(signedIn.member, signedIn.token, form?.code, address)) {
      return redirect(reply, '/dashboard/security');
    }
    const pending = await this.twoFactor.pendingSetUp(signedIn.member);
    if (!pending) return redirect(reply, '/dashboard/security');
    await this.setUpPage(reply, signedIn, pending, 422, problems.wrongCode);
  }

  @Post('two-factor/requirement')
  @RawResponse()
  @AcceptsFormPosts()
  async requireTwoFactor(
    @Req() request: FastifyRequest,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.signedIn(request);
    if (!signedIn) return redirect(reply, '/dashboard/sign-in');
    if (!this.requests.changeAllowed(request, signedIn.token, form)) return redirect(reply, '/dashboard/security');
    // Owners only, and only with a second factor of their own: nobody is required what they lack.
    const required = form?.required === 'yes';
    if (!(await this.twoFactor.require(signedIn.member, required, clientAddressKey(request.ip)))) {
      return page(
        reply,
        403,
        renderSecurity({ ...shownTo(signedIn), notice: problems.ownersOnly }, this.requests.version),
      );
    }
    return redirect(reply, '/dashboard/security');
  }

  private async setUpPage(
    reply: FastifyReply,
    signedIn: SignedIn,
    setUp: TwoFactorSetUp,
    status: number,
    problem?: string,
  ): Promise<void> {
    const qrSvg = await qrCode(setUp.uri, { type: 'svg', margin: 1 });
    await page(
      reply,
      status,
      renderSetUp({ ...shownTo(signedIn), secret: setUp.secret, qrSvg, problem }, this.requests.version),
    );
  }
}
