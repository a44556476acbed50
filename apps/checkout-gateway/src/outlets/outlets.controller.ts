import { Body, Param, Query } from '@nestjs/common';
import {
  CreateOutletRequest,
  OutletPageResponse,
  OutletResponse,
  SearchOutletsQuery,
  SweepSettingsRequest,
  SweepSettingsResponse,
  WalletResponse,
} from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { AcceptsIdempotencyKey, IdempotencyKey } from '../common/idempotency-key';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

@PartnerController('', 'outlets')
export class OutletsController {
  constructor(private readonly outletService: OutletServiceClient) {}

  @Route.post('outlets', 'Create an outlet with its collection and deposit wallets')
  @AcceptsIdempotencyKey()
  @Answers(OutletResponse, 'Outlet created successfully', 422, 503)
  createOutlet(
    @CurrentBusiness() business: Business,
    @Body() request: CreateOutletRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ) {
    return this.outletService.send({
      type: 'createOutlet',
      businessId: business.id,
      request,
      idempotencyKey,
      commandId: newUlid(),
    });
  }

  @Route.get('outlets', 'Find outlets by externalReference (exact) or accountName (prefix, any case)')
  @Answers(OutletPageResponse, 'Outlets retrieved successfully', 422, 503)
  searchOutlets(@CurrentBusiness() business: Business, @Query() query: SearchOutletsQuery) {
    return this.outletService.send({ type: 'searchOutlets', businessId: business.id, ...query });
  }

  @Route.get('outlets/:outletId', 'Fetch one outlet with the live balances of its wallets')
  @Answers(OutletResponse, 'Outlet retrieved successfully', 404, 503)
  getOutlet(@CurrentBusiness() business: Business, @Param('outletId') outletId: string) {
    return this.outletService.send({ type: 'getOutlet', businessId: business.id, outletId });
  }

  @Route.put('outlets/sweep-settings', 'Sweep collection wallets to the settlement wallet automatically')
  @Answers(SweepSettingsResponse, 'Sweep settings updated', 422, 503)
  setSweepSettings(@CurrentBusiness() business: Business, @Body() request: SweepSettingsRequest) {
    return this.outletService.send({ type: 'setSweepSettings', businessId: business.id, request });
  }

  @Route.get('wallets/settlement', 'Your settlement wallet: checkout payments and sweeps land here')
  @Answers(WalletResponse, 'Wallet retrieved successfully', 503)
  getSettlementWallet(@CurrentBusiness() business: Business) {
    return this.outletService.send({ type: 'getSettlementWallet', businessId: business.id });
  }
}
