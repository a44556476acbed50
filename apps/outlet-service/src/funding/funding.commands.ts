import { Injectable } from '@nestjs/common';
import { OutletCommandHandlers } from '@payments/contracts';

import { CreditVirtualAccountUseCase } from './credit-virtual-account.usecase';

/** The sandbox bank's notices of money arriving on an account number. */
@Injectable()
export class FundingCommands {
  constructor(private readonly funding: CreditVirtualAccountUseCase) {}

  readonly handlers: OutletCommandHandlers<'creditVirtualAccount'> = {
    creditVirtualAccount: (command) =>
      this.funding.execute(command.accountNumber, command.request, {
        sessionId: command.sessionId,
        caller: { businessId: command.businessId, idempotencyKey: command.idempotencyKey },
      }),
  };
}
