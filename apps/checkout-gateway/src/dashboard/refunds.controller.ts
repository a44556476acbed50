import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RefundResponse } from '@payments/contracts';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { AcceptsFormPosts, DomainError, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { DashboardRefunds, RefundConfirmation, refundRefusals } from './dashboard-refunds';
import { DashboardRequests, Form, page, redirect, shownTo, SignedIn } from './dashboard-requests';
import { renderRefund, renderRefundConfirmation, renderRefundProblem } from './refunds-html';

/**
 * Refunds from a payment's page, in two steps: the amount and reason, then a confirmation that
 * makes the refund (DashboardRefunds). Owners and operations only, checked at each step.
 */
@ApiExcludeController()
@Controller('dashboard')
@LimitedPerClientAddress()
export class DashboardRefundsController {
  constructor(
    private readonly refunds: DashboardRefunds,
    private readonly requests: DashboardRequests,
  ) {}

  @Post('transactions/:reference/refund')
  @RawResponse()
  @AcceptsFormPosts()
  async review(
    @Req() request: FastifyRequest,
    @Param('reference') reference: string,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.changer(request, form);
    if (!signedIn) return redirect(reply, `/dashboard/transactions/${encodeURIComponent(reference)}`);
    const intent = this.refunds.review(signedIn.member, reference, form?.amount ?? '', form?.reason ?? '');
    if (typeof intent === 'string') return this.refused(reply, signedIn, intent, reference);
    const shown = await this.refunds.confirmation(signedIn.member, signedIn.token, intent);
    if (typeof shown === 'string') return this.refused(reply, signedIn, shown, reference, 503);
    await this.confirmationPage(reply, signedIn, shown.confirmation, shown.refunds, 200);
  }

  @Post('refunds')
  @RawResponse()
  @AcceptsFormPosts()
  async confirm(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.changer(request, form);
    if (!signedIn) return redirect(reply, '/dashboard/transactions');
    const confirmation = this.refunds.confirmed(signedIn.member, signedIn.token, form);
    if (typeof confirmation === 'string') return this.refused(reply, signedIn, confirmation);
    try {
      const refund = await this.refunds.make(signedIn.member, confirmation, clientAddressKey(request.ip));
      await redirect(reply, `/dashboard/refunds/${encodeURIComponent(refund.reference)}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status !== 503 || error.message === refundRefusals.unrecorded) {
        return this.refused(reply, signedIn, error.message, confirmation.reference, error.status);
      }
      // The ledger did not answer in time: the refund may yet be made. The same confirmation is
      // offered again, with the same key, so trying again refunds once at most.
      const refunds = await this.refunds.of(signedIn.member, confirmation.reference);
      await this.confirmationPage(reply, signedIn, confirmation, refunds, 503, refundRefusals.unanswered);
    }
  }

  @Get('refunds/:reference')
  @RawResponse()
  async refund(
    @Req() request: FastifyRequest,
    @Param('reference') reference: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.pageMember(request);
    if ('sendTo' in signedIn) return redirect(reply, signedIn.sendTo);
    const shown = shownTo(signedIn);
    try {
      const refund = await this.refunds.get(signedIn.member, reference);
      await page(reply, 200, renderRefund({ ...shown, refund }, this.requests.version));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const title = error.status === 503 ? 'Refund cannot be read now' : 'Refund not found';
      await page(
        reply,
        error.status,
        renderRefundProblem({ ...shown, title, problem: error.message }, this.requests.version),
      );
    }
  }

  private async confirmationPage(
    reply: FastifyReply,
    signedIn: SignedIn,
    confirmation: RefundConfirmation,
    refunds: RefundResponse[] | undefined,
    status: number,
    problem?: string,
  ): Promise<void> {
    const shown = { ...shownTo(signedIn), confirmation, refunds, problem };
    await page(reply, status, renderRefundConfirmation(shown, this.requests.version));
  }

  private async refused(
    reply: FastifyReply,
    signedIn: SignedIn,
    problem: string,
    reference?: string,
    status = problem === refundRefusals.role ? 403 : 422,
  ): Promise<void> {
    const shown = { ...shownTo(signedIn), title: 'Refund not made' };
    await page(reply, status, renderRefundProblem({ ...shown, reference, problem }, this.requests.version));
  }
}
