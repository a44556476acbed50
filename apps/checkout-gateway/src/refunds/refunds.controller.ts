import { Body, Param, Query, UseInterceptors } from '@nestjs/common';
import { CreateRefundRequest, ListRefundsQuery, RefundPage, RefundResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { IdempotencyKey, RequiresIdempotencyKey } from '../common/idempotency-key';
import { KnownQueryParameters } from '../common/known-query-parameters';
import { RefundsService } from './refunds.service';

@PartnerController('refunds', 'refunds')
export class RefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Route.post('', 'Refund a paid checkout or POS payment, in full or in part; its amount is held at once')
  @RequiresIdempotencyKey()
  @Answers(RefundResponse, 'Refund accepted', 404, 422, 503)
  createRefund(
    @CurrentBusiness() business: Business,
    @Body() request: CreateRefundRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ) {
    return this.refunds.create(business, request, idempotencyKey);
  }

  @Route.get('', 'Your refunds, newest first, filtered and a page at a time')
  @Answers(RefundPage, 'Refunds retrieved successfully', 422, 503)
  @UseInterceptors(KnownQueryParameters)
  listRefunds(@CurrentBusiness() business: Business, @Query() query: ListRefundsQuery) {
    return this.refunds.list(business, query);
  }

  // Declared after the list: the list's path has no :reference to take.
  @Route.get(':reference', 'A refund and its status: PENDING, then PROCESSED or FAILED')
  @Answers(RefundResponse, 'Refund retrieved successfully', 404, 422, 503)
  @UseInterceptors(KnownQueryParameters)
  getRefund(@CurrentBusiness() business: Business, @Param('reference') reference: string) {
    return this.refunds.get(business, reference);
  }
}
