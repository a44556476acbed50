import { Body, Param } from '@nestjs/common';
import { CreditVirtualAccountRequest, CreditVirtualAccountResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { AcceptsIdempotencyKey, IdempotencyKey } from '../common/idempotency-key';
import { SandboxRailService } from './sandbox-rail.service';

/** Simulators of the outside world, for test keys only. */
@PartnerController('sandbox', 'sandbox')
export class SandboxController {
  constructor(private readonly rail: SandboxRailService) {}

  @Route.post(
    'virtual-accounts/:accountNumber/credit',
    'Simulate an inbound bank transfer to one of your virtual accounts (test keys only)',
  )
  @AcceptsIdempotencyKey()
  @Answers(CreditVirtualAccountResponse, 'Virtual account credited', 403, 404, 422, 503)
  creditVirtualAccount(
    @CurrentBusiness() business: Business,
    @Param('accountNumber') accountNumber: string,
    @Body() request: CreditVirtualAccountRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ) {
    return this.rail.credit(business, accountNumber, request, idempotencyKey);
  }
}
