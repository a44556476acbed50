import { Injectable } from '@nestjs/common';
import { OutletCommandHandlers } from '@payments/contracts';

import { BankTransferUseCase } from './bank-transfer.usecase';
import { InternalTransferUseCase } from './internal-transfer.usecase';

/** The gateway's transfer requests: between the business's wallets, and out to a bank. */
@Injectable()
export class TransferCommands {
  constructor(
    private readonly internalTransfers: InternalTransferUseCase,
    private readonly bankTransfers: BankTransferUseCase,
  ) {}

  readonly handlers: OutletCommandHandlers<'internalTransfer' | 'bankTransfer'> = {
    internalTransfer: (command) => this.internalTransfers.execute(command.businessId, command.request),
    bankTransfer: (command) => this.bankTransfers.execute(command.businessId, command.request),
  };
}
