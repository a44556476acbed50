import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { EventEnvelope, PosTransactionDecidedV1, PosTransactionDecidedV1Payload, Topics } from '@payments/contracts';
import { PosCreditUseCase } from './pos-credit.usecase';

@Controller()
export class PosOutcomesConsumer {
  constructor(private readonly credits: PosCreditUseCase) {}

  @EventPattern(Topics.posOutcomes.name)
  async handle(@Payload() event: EventEnvelope<PosTransactionDecidedV1Payload>): Promise<void> {
    if (event?.type !== PosTransactionDecidedV1) return;
    await this.credits.apply(event.eventId, event.payload);
  }
}
