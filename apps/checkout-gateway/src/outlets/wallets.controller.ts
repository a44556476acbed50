import { WalletResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';

@PartnerController('wallets', 'outlets')
export class WalletsController {
  constructor(private readonly outletService: OutletServiceClient) {}

  @Route.get('settlement', 'Your settlement wallet: checkout payments and sweeps land here')
  @Answers(WalletResponse, 'Wallet retrieved successfully', 503)
  getSettlementWallet(@CurrentBusiness() business: Business) {
    return this.outletService.send({ type: 'getSettlementWallet', businessId: business.id });
  }
}
