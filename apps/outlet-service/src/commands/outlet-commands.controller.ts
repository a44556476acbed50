import { Controller } from '@nestjs/common';
import { OutletCommand, OutletCommandHandlers, Topics } from '@payments/contracts';
import { CommandHandler, dispatchCommand, joinCommandHandlers } from '@payments/platform-kafka';

import { CheckoutCommands } from '../checkouts/checkout.commands';
import { FundingCommands } from '../funding/funding.commands';
import { OutletCommands } from '../outlets/outlet.commands';
import { RefundCommands } from '../refunds/refund.commands';
import { SweepCommands } from '../sweeps/sweep.commands';
import { TransferCommands } from '../transfers/transfer.commands';

/**
 * The gateway's requests, over Kafka request/reply: one consumer for the topic, each command
 * answered by the handler of its name in the feature that owns it (`<feature>.commands.ts`).
 * Domain errors travel back as data, so the gateway answers them with the right status;
 * anything else is logged and reported as an internal error without details.
 */
@Controller()
export class OutletCommandsController {
  private readonly handlers: OutletCommandHandlers;

  constructor(
    outlets: OutletCommands,
    transfers: TransferCommands,
    sweeps: SweepCommands,
    funding: FundingCommands,
    checkouts: CheckoutCommands,
    refunds: RefundCommands,
  ) {
    this.handlers = joinCommandHandlers(
      outlets.handlers,
      transfers.handlers,
      sweeps.handlers,
      funding.handlers,
      checkouts.handlers,
      refunds.handlers,
    );
  }

  @CommandHandler(Topics.outletCommands)
  handle(command: OutletCommand): Promise<unknown> {
    return dispatchCommand(this.handlers, command);
  }
}
