import { Body } from '@nestjs/common';
import { SweepSettingsRequest, SweepSettingsResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

@PartnerController('outlets', 'outlets')
export class SweepSettingsController {
  constructor(private readonly outletService: OutletServiceClient) {}

  @Route.put('sweep-settings', 'Sweep collection wallets to the settlement wallet automatically')
  @Answers(SweepSettingsResponse, 'Sweep settings updated', 422, 503)
  setSweepSettings(@CurrentBusiness() business: Business, @Body() request: SweepSettingsRequest) {
    return this.outletService.send({ type: 'setSweepSettings', businessId: business.id, request });
  }
}
