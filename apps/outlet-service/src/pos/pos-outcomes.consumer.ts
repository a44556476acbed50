import { Controller } from '@nestjs/common';
import { EventEnvelope, PosTransactionDecidedV1, PosTransactionDecidedV1Payload, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';
import { untilOnboarded } from '../tenants/until-onboarded';
import { PosCreditUseCase } from './pos-credit.usecase';

@Controller()
export class PosOutcomesConsumer {
  constructor(private readonly credits: PosCreditUseCase) {}

  @EventHandler(Topics.posOutcomes, 'bulk')
  async handle(event: EventEnvelope<PosTransactionDecidedV1Payload>): Promise<void> {
    if (event?.type !== PosTransactionDecidedV1) return;
    await untilOnboarded(event.payload.businessId, () => this.credits.apply(event.eventId, event.payload));
  }
}
