import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WalletResponse } from '@payments/contracts';
import { ApiEnvelopeErrors, ApiEnvelopeOk, ApiKeyProtected, SuccessMessage } from '@payments/platform-envelope';

import { ApiKeyGuard, CurrentBusiness } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

@ApiTags('outlets')
@Controller('wallets')
@UseGuards(ApiKeyGuard)
@ApiKeyProtected()
export class WalletsController {
  constructor(private readonly outletService: OutletServiceClient) {}

  @Get('settlement')
  @ApiOperation({ summary: 'Your settlement wallet: checkout payments and sweeps land here' })
  @ApiEnvelopeOk(WalletResponse)
  @ApiEnvelopeErrors(503)
  @SuccessMessage('Wallet retrieved successfully')
  settlement(@CurrentBusiness() business: Business): Promise<WalletResponse> {
    return this.outletService.send({ type: 'getSettlementWallet', businessId: business.id });
  }
}
