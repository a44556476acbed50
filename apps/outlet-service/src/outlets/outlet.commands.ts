import { Injectable } from '@nestjs/common';
import { OutletCommandHandlers } from '@payments/contracts';

import { OutletsService } from './outlets.service';

/** The gateway's outlet and settlement-wallet requests. */
@Injectable()
export class OutletCommands {
  constructor(private readonly outlets: OutletsService) {}

  readonly handlers: OutletCommandHandlers<'createOutlet' | 'getOutlet' | 'getSettlementWallet' | 'searchOutlets'> = {
    createOutlet: (command) =>
      this.outlets.create(command.businessId, command.request, command.idempotencyKey, command.commandId),
    getOutlet: (command) => this.outlets.get(command.businessId, command.outletId),
    getSettlementWallet: (command) => this.outlets.settlementWallet(command.businessId),
    searchOutlets: (command) => this.outlets.search(command.businessId, command),
  };
}
