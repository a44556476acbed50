import { Body } from '@nestjs/common';
import { InternalTransferRequest, InternalTransferResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

@PartnerController('transfer', 'transfers')
export class InternalTransfersController {
  constructor(private readonly outletService: OutletServiceClient) {}

  @Route.post('internal', 'Move money between two wallets of your business; idempotent on reference')
  @Answers(InternalTransferResponse, 'Transfer successful', 404, 422, 503)
  createInternalTransfer(@CurrentBusiness() business: Business, @Body() request: InternalTransferRequest) {
    return this.outletService.send({ type: 'internalTransfer', businessId: business.id, request });
  }
}
