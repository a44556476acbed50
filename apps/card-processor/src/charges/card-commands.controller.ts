import { Controller } from '@nestjs/common';
import { CardCommand, Topics } from '@payments/contracts';
import { CommandHandler } from '@payments/platform-kafka';

import { CardChargesService } from './card-charges.service';

/** The gateway's card requests over Kafka request/reply; domain errors travel back as data. */
@Controller()
export class CardCommandsController {
  constructor(private readonly charges: CardChargesService) {}

  @CommandHandler(Topics.cardCommands)
  handle(command: CardCommand): Promise<unknown> {
    switch (command.type) {
      case 'startCharge':
        return this.charges.start(command);
      case 'authorize':
        return this.charges.authorize(command);
      case 'complete3ds':
        return this.charges.complete3ds(command.chargeId, command.checkoutReference, command.approved);
    }
  }
}
