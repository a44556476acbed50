import { Controller } from '@nestjs/common';
import {
  CardChargeSucceededV1,
  CardChargeSucceededV1Payload,
  CommandReply,
  EventEnvelope,
  Topics,
} from '@payments/contracts';
import { CommandReplies, EventHandler, MessageContext } from '@payments/platform-kafka';

import { AwaitingOnboarding } from '../businesses/awaiting-onboarding';
import { CardCheckoutPayments } from './card-checkout-payments';

/** What the gateway hears while a charge waits for its business's onboarding to reach this service. */
const recordingLater: CommandReply = {
  ok: false,
  error: {
    code: 'PROCESSOR_UNAVAILABLE',
    message: 'The payment is being recorded; retrying the same request is safe and answers how it ended',
    status: 503,
  },
};

/**
 * A checkout's card charge succeeded in card-processor: the money is booked from this event,
 * once per charge however often it arrives. When the request that captured the card handed
 * its reply on with the event, the gateway is waiting: it is answered from here, with
 * card-processor's answer and the ledger's outcome, one process crossing after the capture.
 */
@Controller()
export class CardChargesConsumer {
  constructor(
    private readonly cards: CardCheckoutPayments,
    private readonly awaiting: AwaitingOnboarding,
    private readonly replies: CommandReplies,
  ) {
    awaiting.register<CardChargeSucceededV1Payload>('card-charge', async (event) => {
      await cards.pay(event.payload);
    });
  }

  @EventHandler(Topics.cardCharges)
  async handle(event: EventEnvelope<CardChargeSucceededV1Payload>, context: MessageContext): Promise<void> {
    if (event?.type !== CardChargeSucceededV1) return;
    const { answer } = event.payload;
    const booked = await this.awaiting.apply('card-charge', event, () => this.cards.pay(event.payload));
    if (!answer) return;
    await this.replies.send(
      context.headers,
      booked ? { ok: true, data: { ...answer, checkout: booked } } : recordingLater,
    );
  }
}
