import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { PartnerEvents } from '@payments/contracts';
import { WorkerLoop } from '@payments/platform-bootstrap';
import { newUlid } from '@payments/platform-crypto';
import { DataSource } from 'typeorm';

import { BusinessesRepository } from '../businesses/businesses.repository';
import { Env } from '../config/env';
import { PartnerEventsOutbox } from '../events/partner-events';
import { LedgerService } from '../money/ledger.service';
import { transactionEvent } from '../money/transaction-event';
import { availableBalance, WalletsRepository } from '../money/wallets.repository';

/** Businesses one pass claims at a time. */
const dueBatch = 20;

/**
 * Moves each collection wallet's available balance to the business's settlement wallet once
 * it reaches the business's threshold, at most once per interval. A replica claims a due
 * business by moving its next sweep time forward in a committed transaction, so two replicas
 * never sweep the same business in the same interval; each wallet is swept under its row lock.
 */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: WorkerLoop;

  constructor(
    private readonly dataSource: DataSource,
    private readonly businesses: BusinessesRepository,
    private readonly wallets: WalletsRepository,
    private readonly ledger: LedgerService,
    private readonly events: PartnerEventsOutbox,
    env: Env,
  ) {
    this.worker = new WorkerLoop(Sweeper.name, env.SWEEP_POLL_INTERVAL_MS, async () => (await this.sweepDue()) > 0);
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  /** Sweeps the businesses that are due; returns how many wallets it swept. */
  async sweepDue(): Promise<number> {
    const due = await this.businesses.claimDueSweeps(this.dataSource.manager, dueBatch);
    let swept = 0;
    for (const { businessId, threshold } of due) {
      for (const wallet of await this.wallets.ofType(this.dataSource.manager, businessId, 'collection')) {
        if (await this.sweepWallet(businessId, wallet.id, threshold)) swept += 1;
      }
    }
    return swept;
  }

  private sweepWallet(businessId: string, walletId: string, threshold: bigint): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const settlementId = (await this.wallets.systemWallet(em, businessId, 'settlement')).id;
      const locked = await this.wallets.lock(em, businessId, [walletId, settlementId]);
      const [collection, settlement] = [locked.get(walletId)!, locked.get(settlementId)!];
      const amount = availableBalance(collection);
      if (amount <= 0n || amount < threshold) return false;
      const sweepReference = newUlid();
      const entry = await this.ledger.post(em, {
        businessId,
        kind: 'sweep',
        reference: sweepReference,
        narration: 'Automatic sweep to settlement wallet',
        postings: [
          { wallet: collection, amount: -amount },
          { wallet: settlement, amount },
        ],
      });
      const eventData = {
        sweepReference,
        ...transactionEvent({
          productType: 'sweep',
          amount: amount.toString(),
          transactionStatus: 'SUCCESS',
          transactionReference: sweepReference,
          comment: 'Automatic sweep to settlement wallet',
          createdAt: entry.createdAt.toISOString(),
          transactionAccount: collection.accountNumber?.trim() ?? collection.id,
          transactionType: 'DEBIT',
          details: {
            outletId: collection.outletId,
            walletId: collection.id,
            settlementWalletId: settlement.id,
            journalEntryId: entry.id,
          },
        }),
      };
      await this.events.add(em, businessId, PartnerEvents.walletSweptIntraSuccessful, eventData);
      return true;
    });
  }
}
