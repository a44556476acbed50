import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CreateRefundRequest, RefundResponse } from '@payments/contracts';
import {
  ApiEnvelopeErrors,
  ApiEnvelopeOk,
  apiError,
  ApiRequestBody,
  SuccessMessage,
  ValidationFailedError,
} from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { CheckoutsRepository } from '../checkouts/checkouts.repository';
import { IdempotencyKey, RequiresIdempotencyKey } from '../common/idempotency-key';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

@PartnerController('refunds', 'refunds')
export class RefundsController {
  constructor(
    private readonly outletService: OutletServiceClient,
    private readonly checkouts: CheckoutsRepository,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Refund a paid checkout or POS payment, in full or in part; its amount is held at once' })
  @ApiRequestBody(CreateRefundRequest)
  @ApiEnvelopeOk(RefundResponse)
  @ApiEnvelopeErrors(404, 422, 503)
  @SuccessMessage('Refund accepted')
  @RequiresIdempotencyKey()
  async create(
    @CurrentBusiness() business: Business,
    @Body() request: CreateRefundRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<RefundResponse> {
    if (!idempotencyKey)
      throw new ValidationFailedError([
        { field: 'Idempotency-Key', messages: ['Idempotency-Key is required: a retry must never refund twice'] },
      ]);
    // The gateway knows checkouts the ledger never saw: one not paid says so rather than "not found".
    const checkout = await this.checkouts.find(business.id, request.transactionReference);
    if (checkout && checkout.status !== 'SUCCESS')
      throw apiError(
        'REFUND_NOT_ALLOWED',
        `Checkout ${checkout.reference} has not been paid (${checkout.status}): there is nothing to refund`,
      );
    return this.outletService.send({ type: 'createRefund', businessId: business.id, request, idempotencyKey });
  }

  @Get(':reference')
  @ApiOperation({ summary: 'A refund and its status: PENDING, then PROCESSED or FAILED' })
  @ApiEnvelopeOk(RefundResponse)
  @ApiEnvelopeErrors(404, 503)
  @SuccessMessage('Refund retrieved successfully')
  get(@CurrentBusiness() business: Business, @Param('reference') reference: string): Promise<RefundResponse> {
    return this.outletService.send({ type: 'getRefund', businessId: business.id, reference });
  }
}
