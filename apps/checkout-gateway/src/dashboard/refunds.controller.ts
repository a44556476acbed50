import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CreateRefundRequest, isKoboAmount, RefundResponse } from '@payments/contracts';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { newUlid } from '@payments/platform-crypto';
import { AcceptsFormPosts, apiError, DomainError, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { BusinessesService } from '../businesses/businesses.service';
import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { RefundsService } from '../refunds/refunds.service';
import { DashboardRequests, Form, page, redirect, SignedIn } from './dashboard-requests';
import { MembersRepository } from './members.repository';
import { koboFromNaira } from './naira-input';
import { renderRefund, renderRefundConfirmation, renderRefundProblem } from './refunds-html';
import { mayRefund } from './roles';
import { formToken } from './tokens';

const refusals = {
  role: 'Only owners and operations can refund. Ask one of them.',
  amount: 'Give the amount in naira, such as 1500 or 1,500.50, or leave it empty to refund all that is left.',
  reason: 'Keep the reason to 200 characters.',
  form: 'The refund form was incomplete. Start again from the payment.',
  unanswered:
    'The refund could not be confirmed yet, and may still be made. Trying again here is safe: it refunds once.',
} as const;

/** What a form's field holds, when it is one text. */
const text = (form: Form, field: string) => (typeof form?.[field] === 'string' ? (form[field] as string).trim() : '');

/**
 * Refunds from a payment's page, in two steps: the amount and reason, then a confirmation that
 * makes the refund through the API's own service. The confirmation carries an idempotency key
 * made when it was shown, so a confirmation posted twice (a double click, a retry after a lost
 * answer) refunds once. Owners and operations only, checked at each step on the server.
 */
@ApiExcludeController()
@Controller('dashboard')
@LimitedPerClientAddress()
export class DashboardRefundsController {
  constructor(
    private readonly refunds: RefundsService,
    private readonly businesses: BusinessesService,
    private readonly members: MembersRepository,
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
    const typed = text(form, 'amount');
    const amount = typed === '' ? '' : koboFromNaira(typed);
    const refused = this.refusal(signedIn, amount, text(form, 'reason'));
    if (refused) return this.problem(reply, signedIn, refused, reference);
    const confirmation = {
      member: signedIn.member,
      formToken: formToken(signedIn.token),
      reference,
      amount: amount ?? '',
      reason: text(form, 'reason'),
      idempotencyKey: `dashboard-${newUlid()}`,
    };
    await page(reply, 200, renderRefundConfirmation(confirmation, this.requests.version));
  }

  @Post('refunds')
  @RawResponse()
  @AcceptsFormPosts()
  async confirm(@Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.changer(request, form);
    if (!signedIn) return redirect(reply, '/dashboard/transactions');
    const reference = text(form, 'reference');
    const key = text(form, 'key');
    if (!reference || reference.length > 100 || !/^dashboard-[0-9A-Z]{26}$/.test(key)) {
      return this.problem(reply, signedIn, refusals.form, undefined, 422);
    }
    // The amount comes back in kobo, as the confirmation carried it; empty for all that is left.
    const amount = text(form, 'amount');
    const refused = this.refusal(
      signedIn,
      amount === '' || isKoboAmount(amount) ? amount : undefined,
      text(form, 'reason'),
    );
    if (refused) return this.problem(reply, signedIn, refused, reference);
    const refundRequest: CreateRefundRequest = {
      transactionReference: reference,
      ...(amount ? { amount } : {}),
      ...(text(form, 'reason') ? { reason: text(form, 'reason') } : {}),
    };
    let refund: RefundResponse;
    try {
      const business = await this.businesses.find(signedIn.member.business_id);
      if (!business) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${reference} not found`);
      refund = await this.refunds.create(business, refundRequest, key);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status !== 503) return this.problem(reply, signedIn, error.message, reference, error.status);
      // The ledger did not answer in time: the refund may yet be made. The same confirmation,
      // with the same key, is offered again, so trying again refunds once at most.
      const again = {
        member: signedIn.member,
        formToken: formToken(signedIn.token),
        reference,
        amount,
        reason: text(form, 'reason'),
        idempotencyKey: key,
        problem: refusals.unanswered,
      };
      return page(reply, 503, renderRefundConfirmation(again, this.requests.version));
    }
    await this.members.audit({
      businessId: signedIn.member.business_id,
      actorKind: 'member',
      actor: signedIn.member.email,
      action: 'refund.created',
      subject: `${refund.reference} of ${refund.transactionReference}, ${refund.amount} kobo`,
      clientAddress: clientAddressKey(request.ip),
    });
    await redirect(reply, `/dashboard/refunds/${encodeURIComponent(refund.reference)}`);
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
    const shown = { member: signedIn.member, formToken: formToken(signedIn.token), title: 'Refund not found' };
    try {
      const business = await this.businesses.find(signedIn.member.business_id);
      if (!business) throw apiError('REFUND_NOT_FOUND', `Refund ${reference} not found`);
      const refund = await this.refunds.get(business, reference);
      await page(
        reply,
        200,
        renderRefund({ member: signedIn.member, formToken: formToken(signedIn.token), refund }, this.requests.version),
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await page(reply, error.status, renderRefundProblem({ ...shown, problem: error.message }, this.requests.version));
    }
  }

  /** Why the member cannot make this refund (undefined `amount`: one that could not be read), or undefined when they can. */
  private refusal(signedIn: SignedIn, amount: string | undefined, reason: string): string | undefined {
    if (!mayRefund(signedIn.member.role)) return refusals.role;
    if (amount === undefined) return refusals.amount;
    if (reason.length > 200) return refusals.reason;
    return undefined;
  }

  private async problem(
    reply: FastifyReply,
    signedIn: SignedIn,
    problem: string,
    reference?: string,
    status?: number,
  ): Promise<void> {
    const answer = status ?? (problem === refusals.role ? 403 : 422);
    const shown = { member: signedIn.member, formToken: formToken(signedIn.token), title: 'Refund not made' };
    await page(reply, answer, renderRefundProblem({ ...shown, reference, problem }, this.requests.version));
  }
}
