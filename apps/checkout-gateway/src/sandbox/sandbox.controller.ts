import { Body, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CreditVirtualAccountRequest, CreditVirtualAccountResponse } from '@payments/contracts';
import { ApiEnvelopeErrors, ApiEnvelopeOk, ApiRequestBody, SuccessMessage } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { AcceptsIdempotencyKey, IdempotencyKey } from '../common/idempotency-key';
import { SandboxRailService } from './sandbox-rail.service';

/** Simulators of the outside world, for test keys only. */
@PartnerController('sandbox', 'sandbox')
export class SandboxController {
  constructor(private readonly rail: SandboxRailService) {}

  @Post('virtual-accounts/:accountNumber/credit')
  @HttpCode(200)
  @ApiOperation({ summary: 'Simulate an inbound bank transfer to a virtual account (test keys only)' })
  @ApiRequestBody(CreditVirtualAccountRequest)
  @ApiEnvelopeOk(CreditVirtualAccountResponse)
  @ApiEnvelopeErrors(403, 404, 422, 503)
  @SuccessMessage('Virtual account credited')
  @AcceptsIdempotencyKey()
  credit(
    @CurrentBusiness() business: Business,
    @Param('accountNumber') accountNumber: string,
    @Body() request: CreditVirtualAccountRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<CreditVirtualAccountResponse> {
    return this.rail.credit(business, accountNumber, request, idempotencyKey);
  }
}
