import { Param, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import {
  TransactionLookupQuery,
  TransactionPage,
  TransactionResponse,
  TransactionsExportQuery,
  TransactionsQuery,
} from '@payments/contracts';
import { Answers, ApiEnvelopeErrors, RawResponse, Route } from '@payments/platform-envelope';
import { FastifyReply } from 'fastify';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { KnownQueryParameters } from '../common/known-query-parameters';
import { TransactionsService } from './transactions.service';
import { sendTransactionsCsv } from './transactions-csv';

// A query parameter these routes do not take answers 422, rather than being ignored: a partner
// sending `page` would otherwise read the first page again and again.
@PartnerController('transactions', 'transactions')
@UseInterceptors(KnownQueryParameters)
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Route.get('', 'Your transactions, newest first, filtered and a page at a time')
  @Answers(TransactionPage, 'Transactions retrieved successfully', 422)
  listTransactions(@CurrentBusiness() business: Business, @Query() query: TransactionsQuery) {
    return this.transactions.page(business.id, query);
  }

  // Declared before :reference, which would otherwise take "export" for a reference.
  @Route.get('export', 'Your transactions in a date range as CSV (UTF-8 with BOM, amounts in naira)')
  @RawResponse()
  @ApiOkResponse({
    description: 'CSV: a header row, then one line per transaction, oldest first (docs/transactions.md)',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiEnvelopeErrors(422)
  async exportTransactions(
    @CurrentBusiness() business: Business,
    @Query() query: TransactionsExportQuery,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendTransactionsCsv(reply, query, this.transactions.export(business.id, query));
  }

  @Route.get(':reference', 'One of your transactions, by its reference')
  @Answers(TransactionResponse, 'Transaction retrieved successfully', 404)
  getTransaction(
    @CurrentBusiness() business: Business,
    @Param('reference') reference: string,
    @Query() query: TransactionLookupQuery,
  ) {
    return this.transactions.get(business.id, reference, query.productType);
  }
}
