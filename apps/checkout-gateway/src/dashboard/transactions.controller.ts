import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { transactionProductTypes } from '@payments/contracts';
import { DomainError, RawResponse } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { TransactionsService } from '../transactions/transactions.service';
import { sendTransactionsCsv } from '../transactions/transactions-csv';
import { DashboardRefunds, refundable } from './dashboard-refunds';
import { DashboardRequests, page, redirect, shownTo } from './dashboard-requests';
import { mayRefund } from './roles';
import { exportQuery, filterForm, listQuery } from './transaction-filters';
import { renderTransaction, renderTransactionMissing, renderTransactions } from './transactions-html';

/**
 * The business's transaction history for every member: the API's list, lookup and export, read
 * through the same service with the business of the member's session, never one from the URL.
 */
@ApiExcludeController()
@Controller('dashboard/transactions')
@LimitedPerClientAddress()
export class DashboardTransactionsController {
  constructor(
    private readonly transactions: TransactionsService,
    private readonly refunds: DashboardRefunds,
    private readonly requests: DashboardRequests,
  ) {}

  @Get()
  @RawResponse()
  async list(
    @Req() request: FastifyRequest,
    @Query() query: unknown,
    @Query('cursor') cursor: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.pageMember(request);
    if ('sendTo' in signedIn) return redirect(reply, signedIn.sendTo);
    const shown = shownTo(signedIn);
    try {
      const { form, query: filters } = listQuery(query, cursor);
      const { items, nextCursor } = await this.transactions.page(signedIn.member.business_id, filters);
      await page(reply, 200, renderTransactions({ ...shown, form, items, nextCursor }, this.requests.version));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const { form } = filterForm(query);
      const render = { ...shown, form, items: [], nextCursor: null, problem: error.message };
      await page(reply, error.status, renderTransactions(render, this.requests.version));
    }
  }

  // Declared before :reference, which would otherwise take "export" for a reference.
  @Get('export')
  @RawResponse()
  async export(@Req() request: FastifyRequest, @Query() query: unknown, @Res() reply: FastifyReply): Promise<void> {
    const signedIn = await this.requests.pageMember(request);
    if ('sendTo' in signedIn) return redirect(reply, signedIn.sendTo);
    let rows;
    let range;
    try {
      range = exportQuery(query);
      rows = this.transactions.export(signedIn.member.business_id, range);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const shown = { ...shownTo(signedIn), items: [], nextCursor: null };
      const render = { ...shown, form: filterForm(query).form, problem: error.message };
      return page(reply, error.status, renderTransactions(render, this.requests.version));
    }
    await sendTransactionsCsv(reply, range, rows);
  }

  @Get(':reference')
  @RawResponse()
  async transaction(
    @Req() request: FastifyRequest,
    @Param('reference') reference: string,
    @Query('productType') productType: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const signedIn = await this.requests.pageMember(request);
    if ('sendTo' in signedIn) return redirect(reply, signedIn.sendTo);
    const shown = shownTo(signedIn);
    // An unknown product type finds nothing, as a reference of another business does.
    const known = transactionProductTypes.find((type) => type === productType);
    const item =
      productType === undefined || known
        ? await this.transactions.get(signedIn.member.business_id, reference, known).catch((error: unknown) => {
            if (error instanceof DomainError && error.status === 404) return undefined;
            throw error;
          })
        : undefined;
    if (!item) return page(reply, 404, renderTransactionMissing(shown, this.requests.version));
    // The form is offered to those who may refund a payment that can be; the refund's routes check again.
    // No live rail pays refunds back yet (POST /refunds refuses them too): live payments get no form.
    const refund = mayRefund(signedIn.member.role) && refundable(item) && signedIn.member.business_mode === 'test';
    const refunds = refundable(item) ? await this.refunds.of(signedIn.member, item.reference) : [];
    await page(reply, 200, renderTransaction({ ...shown, item, refund, refunds }, this.requests.version));
  }
}
