import { Controller, Inject } from '@nestjs/common';
import {
  CardRefundDecidedV1,
  CardRefundDecidedV1Payload,
  CardRefundRequestedV1,
  CardRefundRequestedV1Payload,
  EventEnvelope,
  Topics,
} from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { EventHandler } from '@payments/platform-kafka';
import { Outbox } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import { CardAuthoriser, PaymentDecision, PaymentForNetwork, PaymentSettler } from '../card-network/card-authoriser';
import { processingCodeParts } from '../card-network/iso8583/messages';
import { NetworkRequestRow, NetworkRequestsRepository } from '../card-network/network-requests.repository';
import { CARD_SEALER } from '../tokens';
import { CardRefundRow, CardRefundsRepository } from './card-refunds.repository';

const nothingToRefund =
  'The card payment was not approved by the card network, so nothing can be paid back to the card';

/**
 * Refunds of card payments, paid back through the network that approved the payment: a 0200
 * with processing code 20 naming the purchase's RRN (DE48), to the purchase's card, merchant and
 * terminal. Each refund is sent once, and decided once by the network step; a refund whose
 * outcome is unknown is reversed and fails, so its amount is never both refunded and kept.
 */
@Controller()
export class CardRefundsConsumer implements PaymentSettler {
  constructor(
    private readonly dataSource: DataSource,
    private readonly refunds: CardRefundsRepository,
    private readonly requests: NetworkRequestsRepository,
    @Inject(CARD_SEALER) private readonly sealer: Sealer,
    private readonly authoriser: CardAuthoriser,
    private readonly outbox: Outbox,
  ) {
    authoriser.register('refund', this);
  }

  @EventHandler(Topics.cardRefunds)
  async handle(event: EventEnvelope<CardRefundRequestedV1Payload>): Promise<void> {
    if (event?.type !== CardRefundRequestedV1) return;
    const refund = event.payload;
    const purchase = await this.requests.findForPayment(refund.paymentKind, refund.paymentReference);
    const prepared = await this.dataSource.transaction(async (em) => {
      if (!(await this.refunds.beginOnce(em, refund))) return null;
      if (!refundable(purchase, refund.businessId)) {
        await this.decide(em, refund.refundReference, { approved: false, reason: nothingToRefund });
        return null;
      }
      return this.authoriser.prepare(em, this.paymentOf(refund, purchase));
    });
    if (prepared) await this.authoriser.send(prepared);
  }

  /** The network decided the refund's request (CardAuthoriser calls this in its transaction). */
  async settle(em: EntityManager, request: NetworkRequestRow, decision: PaymentDecision): Promise<boolean> {
    return this.decide(em, request.payment_reference, decision);
  }

  private async decide(em: EntityManager, refundReference: string, decision: PaymentDecision): Promise<boolean> {
    const declineReason = decision.approved ? null : decision.reason;
    const decided = await this.refunds.decide(em, refundReference, decision.approved, declineReason);
    if (!decided) return false;
    await this.outbox.enqueue(em, decidedEvent(decided));
    return true;
  }

  private paymentOf(refund: CardRefundRequestedV1Payload, purchase: NetworkRequestRow): PaymentForNetwork {
    return {
      purpose: 'refund',
      paymentReference: refund.refundReference,
      businessId: refund.businessId,
      mode: purchase.network === 'live' ? 'live' : 'test',
      kind: 'refund',
      amount: refund.amount,
      card: {
        pan: this.sealer.open(purchase.sealed_pan!, purchase.id),
        accountType: processingCodeParts(purchase.processing_code).accountType,
        entryMode: 'not-present',
      },
      terminal: { kind: 'known', merchantId: purchase.merchant_id, terminalId: purchase.terminal_id },
      acceptorName: refund.businessId,
      originalRrn: purchase.rrn,
    };
  }
}

/** A purchase of this business that the network approved, whose card is still held for its refunds. */
function refundable(purchase: NetworkRequestRow | undefined, businessId: string): purchase is NetworkRequestRow {
  return (
    purchase?.business_id === businessId &&
    purchase.state === 'approved' &&
    purchase.processing_code.startsWith('00') &&
    purchase.sealed_pan !== null
  );
}

function decidedEvent(row: CardRefundRow) {
  return {
    topic: Topics.cardRefundOutcomes,
    type: CardRefundDecidedV1,
    key: row.business_id,
    businessId: row.business_id,
    payload: {
      businessId: row.business_id,
      refundReference: row.refund_reference,
      approved: row.approved === true,
      declineReason: row.decline_reason,
      decidedAt: new Date().toISOString(),
    } satisfies CardRefundDecidedV1Payload,
  };
}
