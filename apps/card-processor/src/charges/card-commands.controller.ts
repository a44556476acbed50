import { Controller } from '@nestjs/common';
import { CardCommand, CardCommandResults, CommandHandlers, Topics } from '@payments/contracts';
import { CommandHandler, dispatchCommand } from '@payments/platform-kafka';

import { CardChargesService } from './card-charges.service';

/** The gateway's card requests over Kafka request/reply; domain errors travel back as data. */
@Controller()
export class CardCommandsController {
  constructor(private readonly charges: CardChargesService) {}

  /** A handler for each command type, held to the answer its contract promises. */
  private readonly handlers: CommandHandlers<CardCommand, CardCommandResults> = {
    startCharge: (command) => this.charges.start(command),
    authorize: (command) => this.charges.authorize(command),
    complete3ds: (command) => this.charges.complete3ds(command.chargeId, command.checkoutReference, command.approved),
    chargeOutcome: (command) => this.charges.outcome(command),
  };

  @CommandHandler(Topics.cardCommands)
  handle(command: CardCommand): Promise<unknown> {
    return dispatchCommand(this.handlers, command);
  }
}
