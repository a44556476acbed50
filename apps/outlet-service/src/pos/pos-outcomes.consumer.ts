import { Controller } from '@nestjs/common';
import { EventEnvelope, PosTransactionDecidedV1, PosTransactionDecidedV1Payload, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';

import { AwaitingOnboarding } from '../businesses/awaiting-onboarding';
import { PosCreditUseCase } from './pos-credit.usecase';

@Controller()
export class PosOutcomesConsumer {
  constructor(
    credits: PosCreditUseCase,
    private readonly awaiting: AwaitingOnboarding,
  ) {
    awaiting.register<PosTransactionDecidedV1Payload>('pos-outcome', (event) =>
      credits.apply(event.eventId, event.payload),
    );
  }

  @EventHandler(Topics.posOutcomes, 'bulk')
  async handle(event: EventEnvelope<PosTransactionDecidedV1Payload>): Promise<void> {
    if (event?.type !== PosTransactionDecidedV1) return;
    await this.awaiting.apply('pos-outcome', event);
  }
}
