import { Injectable } from '@nestjs/common';
import { CreditVirtualAccountRequest, CreditVirtualAccountResponse } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { apiError, ValidationFailedError } from '@payments/platform-envelope';

import { Business } from '../businesses/business.entity';
import { CheckoutsService } from '../checkouts/checkouts.service';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

/** The sandbox bank rail, for test keys only: an inbound transfer as the real rail would announce it. */
@Injectable()
export class SandboxRailService {
  constructor(
    private readonly outletService: OutletServiceClient,
    private readonly checkouts: CheckoutsService,
  ) {}

  async credit(
    business: Business,
    accountNumber: string,
    request: CreditVirtualAccountRequest,
    idempotencyKey?: string,
  ): Promise<CreditVirtualAccountResponse> {
    if (business.mode !== 'test') throw apiError('SANDBOX_ONLY', 'Sandbox simulators accept test keys only');
    if (!/^\d{10}$/.test(accountNumber)) {
      throw new ValidationFailedError([{ field: 'accountNumber', messages: ['accountNumber must be 10 digits'] }]);
    }
    // The rail's session id keys the credit. Chosen here when the caller sent none, so a
    // redelivered command is the same transfer; a caller's retry needs its own sessionId or key.
    const { checkoutOutcome, ...credited } = await this.outletService.send({
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
