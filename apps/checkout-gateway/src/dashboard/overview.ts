import { Injectable } from '@nestjs/common';
import { TransactionsQuery } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';

import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { TransactionsService } from '../transactions/transactions.service';
import { Overview } from './overview-html';

const dayMs = 86_400_000;

/** Outlets whose balances the overview lists; the rest are counted. */
const outletsShown = 20;

/**
 * A business's overview, read through the services the API answers from: balances from
 * outlet-service (the ledger), collections and failures from the transaction history. The ledger
 * not answering leaves the balances out rather than the page.
 */
@Injectable()
export class OverviewReader {
  constructor(
    private readonly outletService: OutletServiceClient,
    private readonly transactions: TransactionsService,
  ) {}

  async read(businessId: string, now = new Date()): Promise<Overview> {
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const weekAgo = new Date(now.getTime() - 7 * dayMs);
    const failedQuery = { status: 'FAILED', from: weekAgo.toISOString(), limit: 5 } as TransactionsQuery;
    const [settlement, outlets, todays, weeks, failed] = await Promise.all([
      unlessUnavailable(this.outletService.send({ type: 'getSettlementWallet', businessId })),
      unlessUnavailable(this.outletService.send({ type: 'searchOutlets', businessId, page: 1, limit: outletsShown })),
      this.transactions.collectedSince(businessId, today),
      this.transactions.collectedSince(businessId, weekAgo),
      this.transactions.page(businessId, failedQuery),
    ]);
    return { settlement, outlets, today: todays, week: weeks, failed: failed.items };
  }
}

/** The answer, or undefined when the service gave none it could (late, or failing): the page says so. */
async function unlessUnavailable<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof DomainError) return undefined;
    throw error;
  }
}
