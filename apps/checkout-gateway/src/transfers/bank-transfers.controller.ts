import { Body } from '@nestjs/common';
import { BankTransferRequest, BankTransferResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

@PartnerController('transfer', 'transfers')
export class BankTransfersController {
  constructor(private readonly outletService: OutletServiceClient) {}

  @Route.post('bank', 'Pay out from a deposit wallet to a bank account; settles asynchronously')
  @Answers(BankTransferResponse, 'Transfer is processing', 403, 404, 422, 503)
  createBankTransfer(@CurrentBusiness() business: Business, @Body() request: BankTransferRequest) {
    return this.outletService.send({ type: 'bankTransfer', businessId: business.id, request });
  }
}
