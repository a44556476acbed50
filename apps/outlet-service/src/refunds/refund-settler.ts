import { Injectable } from '@nestjs/common';
import { CardRefundRequestedV1, CardRefundRequestedV1Payload, PartnerEvents, Topics } from '@payments/contracts';
import { Outbox } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

import { PartnerEventsOutbox } from '../events/partner-events';
import { LedgerService } from '../money/ledger.service';
import { WalletsRepository } from '../money/wallets.repository';
import { PayoutSettings } from '../rails/payout-settings';
import { RailSettler } from '../rails/rail-settler';
import { refundEvent } from './refund-event';
import { RefundRow, RefundsRepository } from './refunds.repository';

/** In the sandbox, a refund of a bank payment whose reason is exactly this (any case) is declined by the rail. */
export const decliningSandboxReason = 'decline';

/**
 * Refunds paid back when they fall due, each in its own transaction. A refund of a card payment
 * goes to the card network through card-processor (card.refund.requested.v1), and is settled
 * when its answer comes back (CardRefundOutcomesConsumer); any other is paid back by the
 * sandbox bank rail at once.
 */
@Injectable()
export class RefundSettler extends RailSettler<RefundRow> {
  constructor(
    dataSource: DataSource,
    private readonly refunds: RefundsRepository,
    private readonly wallets: WalletsRepository,
    private readonly ledger: LedgerService,
    private readonly events: PartnerEventsOutbox,
    private readonly outbox: Outbox,
    settings: PayoutSettings,
  ) {
    super(dataSource, settings.pollIntervalMs);
  }

  protected lockNextDue(em: EntityManager): Promise<RefundRow | undefined> {
    return this.refunds.lockNextDue(em);
  }

  protected async settle(em: EntityManager, refund: RefundRow): Promise<void> {
    const cardPayment = await this.refunds.cardPaymentOf(em, refund);
    if (!cardPayment) {
      await this.payBack(em, refund, refund.reason.trim().toLowerCase() !== decliningSandboxReason);
      return;
    }
    // Out of the rail's queue: the card network's answer settles it.
    await this.refunds.awaitCardNetwork(em, refund);
    await this.outbox.enqueue<CardRefundRequestedV1Payload>(em, {
      topic: Topics.cardRefunds,
      type: CardRefundRequestedV1,
      key: refund.business_id,
      businessId: refund.business_id,
      payload: {
        businessId: refund.business_id,
        refundReference: refund.reference,
        paymentKind: cardPayment,
        paymentReference: refund.transaction_reference,
        amount: refund.amount,
        requestedAt: new Date().toISOString(),
      },
    });
  }

  /**
   * Releases the refund's hold and either posts the money back to the rail (refund.processed) or
   * leaves it where it was (refund.failed). The refund is locked, and still PENDING.
   */
  async payBack(em: EntityManager, refund: RefundRow, succeeded: boolean): Promise<void> {
    const amount = BigInt(refund.amount);
    const railId = (await this.wallets.systemWalletIds(em, refund.business_id)).rail;
    const locked = await this.wallets.lock(em, refund.business_id, [refund.wallet_id, railId]);
    const wallet = locked.get(refund.wallet_id)!;
    if (refund.held) {
      await this.wallets.changeHeld(em, wallet.id, -amount);
      wallet.heldBalance -= amount;
    }
    const entry = succeeded
      ? await this.ledger.post(em, {
          businessId: refund.business_id,
          kind: 'refund',
          reference: refund.reference,
          narration: `Refund of ${refund.transaction_reference}`,
          postings: [
            { wallet, amount: -amount },
            { wallet: locked.get(railId)!, amount },
          ],
        })
      : null;
    const settled = await this.refunds.settle(em, refund, succeeded ? 'PROCESSED' : 'FAILED', entry?.id ?? null);
    await this.events.add(
      em,
      refund.business_id,
      succeeded ? PartnerEvents.refundProcessed : PartnerEvents.refundFailed,
      refundEvent(settled, wallet, wallet.outletId),
    );
  }
}
