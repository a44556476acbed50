import { Injectable } from '@nestjs/common';
import { OutletCommandHandlers } from '@payments/contracts';

import { RefundsService } from './refunds.service';

/** The gateway's refund requests. */
@Injectable()
export class RefundCommands {
  constructor(private readonly refunds: RefundsService) {}

  readonly handlers: OutletCommandHandlers<'createRefund' | 'getRefund' | 'listRefunds'> = {
    createRefund: (command) => this.refunds.create(command.businessId, command.request, command.idempotencyKey),
    getRefund: (command) => this.refunds.get(command.businessId, command.reference),
    listRefunds: (command) => this.refunds.list(command.businessId, command.filters),
  };
}
