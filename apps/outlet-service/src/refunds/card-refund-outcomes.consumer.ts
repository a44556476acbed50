import { Controller } from '@nestjs/common';
import { CardRefundDecidedV1, CardRefundDecidedV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';
import { DataSource } from 'typeorm';

import { RefundSettler } from './refund-settler';
import { RefundsRepository } from './refunds.repository';

/**
 * The card network's answer to a refund of a card payment: the refund is paid out of its hold
 * (refund.processed) or its hold released (refund.failed), once however often the answer comes.
 */
@Controller()
export class CardRefundOutcomesConsumer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly refunds: RefundsRepository,
    private readonly settler: RefundSettler,
  ) {}

  @EventHandler(Topics.cardRefundOutcomes)
  async handle(event: EventEnvelope<CardRefundDecidedV1Payload>): Promise<void> {
    if (event?.type !== CardRefundDecidedV1) return;
    const { businessId, refundReference, approved } = event.payload;
    await this.dataSource.transaction(async (em) => {
      const refund = await this.refunds.lockAwaitingCardNetwork(em, businessId, refundReference);
      if (refund) await this.settler.payBack(em, refund, approved);
    });
  }
}
