import { Body, Get, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CreateRefundRequest, RefundResponse } from '@payments/contracts';
import { Answers } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { IdempotencyKey, RequiresIdempotencyKey } from '../common/idempotency-key';
import { RefundsService } from './refunds.service';

@PartnerController('refunds', 'refunds')
export class RefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Post()
  @ApiOperation({ summary: 'Refund a paid checkout or POS payment, in full or in part; its amount is held at once' })
  @RequiresIdempotencyKey()
  @Answers(RefundResponse, 'Refund accepted', 404, 422, 503)
  create(
    @CurrentBusiness() business: Business,
    @Body() request: CreateRefundRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ) {
    return this.refunds.create(business, request, idempotencyKey);
  }

  @Get(':reference')
  @ApiOperation({ summary: 'A refund and its status: PENDING, then PROCESSED or FAILED' })
  @Answers(RefundResponse, 'Refund retrieved successfully', 404, 503)
  get(@CurrentBusiness() business: Business, @Param('reference') reference: string) {
    return this.refunds.get(business, reference);
  }
}
