import { Injectable } from '@nestjs/common';
import { PartnerEvents } from '@payments/contracts';
import { DataSource, EntityManager } from 'typeorm';

import { PartnerEventsOutbox } from '../events/partner-events';
import { LedgerService } from '../money/ledger.service';
import { WalletsRepository } from '../money/wallets.repository';
import { PayoutSettings } from '../rails/payout-settings';
import { RailSettler } from '../rails/rail-settler';
import { refundEvent } from './refund-event';
import { RefundRow, RefundsRepository } from './refunds.repository';

/** In the sandbox, a refund whose reason is exactly this (any case) is declined by the rail. */
export const decliningSandboxReason = 'decline';

/**
 * The sandbox rail and card issuer paying refunds back: each due refund, in its own
 * transaction, releases its hold and either posts the money back to the rail (refund.processed)
 * or leaves it where it was (refund.failed).
 */
@Injectable()
export class RefundSettler extends RailSettler<RefundRow> {
  constructor(
    dataSource: DataSource,
    private readonly refunds: RefundsRepository,
    private readonly wallets: WalletsRepository,
    private readonly ledger: LedgerService,
    private readonly events: PartnerEventsOutbox,
    settings: PayoutSettings,
  ) {
    super(dataSource, settings.pollIntervalMs);
  }

  protected lockNextDue(em: EntityManager): Promise<RefundRow | undefined> {
    return this.refunds.lockNextDue(em);
  }

  protected async settle(em: EntityManager, refund: RefundRow): Promise<void> {
    const amount = BigInt(refund.amount);
    const railId = (await this.wallets.systemWalletIds(em, refund.business_id)).rail;
    const locked = await this.wallets.lock(em, refund.business_id, [refund.wallet_id, railId]);
    const wallet = locked.get(refund.wallet_id)!;
    if (refund.held) {
      await this.wallets.changeHeld(em, wallet.id, -amount);
      wallet.heldBalance -= amount;
    }
    const succeeded = refund.reason.trim().toLowerCase() !== decliningSandboxReason;
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
