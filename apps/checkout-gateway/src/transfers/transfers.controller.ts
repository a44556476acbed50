import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  BankTransferRequest,
  BankTransferResponse,
  InternalTransferRequest,
  InternalTransferResponse,
} from '@payments/contracts';
import { ApiEnvelopeErrors, ApiEnvelopeOk, ApiRequestBody, SuccessMessage } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

@PartnerController('transfer', 'transfers')
export class TransfersController {
  constructor(private readonly outletService: OutletServiceClient) {}

  @Post('internal')
  @HttpCode(200)
  @ApiOperation({ summary: 'Move money between two wallets of your business; idempotent on reference' })
  @ApiRequestBody(InternalTransferRequest)
  @ApiEnvelopeOk(InternalTransferResponse)
  @ApiEnvelopeErrors(404, 422, 503)
  @SuccessMessage('Transfer successful')
  internal(
    @CurrentBusiness() business: Business,
    @Body() request: InternalTransferRequest,
  ): Promise<InternalTransferResponse> {
    return this.outletService.send({ type: 'internalTransfer', businessId: business.id, request });
  }

  @Post('bank')
  @HttpCode(200)
  @ApiOperation({ summary: 'Pay out from a deposit wallet to a bank account; settles asynchronously' })
  @ApiRequestBody(BankTransferRequest)
  @ApiEnvelopeOk(BankTransferResponse)
  @ApiEnvelopeErrors(403, 404, 422, 503)
  @SuccessMessage('Transfer is processing')
  bank(@CurrentBusiness() business: Business, @Body() request: BankTransferRequest): Promise<BankTransferResponse> {
    return this.outletService.send({ type: 'bankTransfer', businessId: business.id, request });
  }
}
