import { Body, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  CreditVirtualAccountRequest,
  CreditVirtualAccountResponse,
  CreditVirtualAccountResult,
} from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
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
import { CheckoutsService } from '../checkouts/checkouts.service';
import { AcceptsIdempotencyKey, IdempotencyKey } from '../common/idempotency-key';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

/** Simulators of the outside world, for test keys only. */
@PartnerController('sandbox', 'sandbox')
export class SandboxController {
  constructor(
    private readonly outletService: OutletServiceClient,
    private readonly checkouts: CheckoutsService,
  ) {}

  @Post('virtual-accounts/:accountNumber/credit')
  @HttpCode(200)
  @ApiOperation({ summary: 'Simulate an inbound bank transfer to a virtual account (test keys only)' })
  @ApiRequestBody(CreditVirtualAccountRequest)
  @ApiEnvelopeOk(CreditVirtualAccountResponse)
  @ApiEnvelopeErrors(403, 404, 422, 503)
  @SuccessMessage('Virtual account credited')
  @AcceptsIdempotencyKey()
  async credit(
    @CurrentBusiness() business: Business,
    @Param('accountNumber') accountNumber: string,
    @Body() request: CreditVirtualAccountRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<CreditVirtualAccountResponse> {
    if (business.mode !== 'test') throw apiError('SANDBOX_ONLY', 'Sandbox simulators accept test keys only');
    if (!/^\d{10}$/.test(accountNumber)) {
      throw new ValidationFailedError([{ field: 'accountNumber', messages: ['accountNumber must be 10 digits'] }]);
    }
    // The rail's session id keys the credit. Chosen here when the caller sent none, so a
    // redelivered command is the same transfer; a caller's retry needs its own sessionId or key.
    const { checkoutOutcome, ...credited } = await this.outletService.send<CreditVirtualAccountResult>({
      type: 'creditVirtualAccount',
      businessId: business.id,
      accountNumber,
      sessionId: request.sessionId ?? newUlid(),
      request,
      idempotencyKey,
    });
    if (checkoutOutcome) await this.checkouts.applyOutcome(checkoutOutcome);
    return credited;
  }
}
