import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CardCommand, CommandReply, Topics } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';
import { CardCharges } from './card-charges';

/** The gateway's card requests over Kafka request/reply; domain errors travel back as data. */
@Controller()
export class CardCommandsController {
  private readonly logger = new Logger(CardCommandsController.name);

  constructor(private readonly charges: CardCharges) {}

  @MessagePattern(Topics.cardCommands.name)
  async handle(@Payload() command: CardCommand): Promise<CommandReply> {
    try {
      return { ok: true, data: await this.dispatch(command) };
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, error: { code: error.code, message: error.message, status: error.status } };
      this.logger.error({ err: error, command: command?.type }, 'card command failed');
      return { ok: false, error: { code: 'INTERNAL_ERROR', message: 'card-processor failed to process the request', status: 500 } };
    }
  }

  private dispatch(command: CardCommand) {
    switch (command.type) {
      case 'startCharge':
        return this.charges.start(command);
      case 'authorize':
        return this.charges.authorize(command);
      case 'complete3ds':
        return this.charges.complete3ds(command.chargeId, command.approved);
    }
  }
}
