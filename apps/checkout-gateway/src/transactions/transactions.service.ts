import { Injectable } from '@nestjs/common';
import {
  TransactionFilters,
  TransactionPage,
  TransactionResponse,
  TransactionsExportQuery,
  TransactionsQuery,
} from '@payments/contracts';
import { apiError, invalidFields } from '@payments/platform-envelope';

import { notIssued, PageCursors } from '../common/page-cursors';
import { CollectedTotal, TransactionPlace, TransactionsRepository } from './transactions.repository';

/** The longest date range one export covers. */
const maxExportDays = 366;

/** A place as a cursor carries it: createdAt to the microsecond, a space, the arrival. */
const placeText = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z) ([1-9]\d{0,18})$/;

/**
 * The business's transaction history. A cursor seals the place of the last transaction a page
 * showed (its createdAt and arrival), so the next page starts right after it, however many
 * transactions arrive meanwhile.
 */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly cursors: PageCursors,
  ) {}

  async page(businessId: string, query: TransactionsQuery): Promise<TransactionPage> {
    checkRange(query);
    const after = query.cursor === undefined ? null : this.placeOf(businessId, query.cursor);
    const rows = await this.transactions.newestFirst(businessId, query, after, query.limit + 1);
    const items = rows.slice(0, query.limit);
    const more = rows.length > query.limit;
    return {
      items: items.map((row) => row.transaction),
      nextCursor: more ? this.cursorAt(businessId, items[items.length - 1].place) : null,
    };
  }

  async get(businessId: string, reference: string, productType?: string): Promise<TransactionResponse> {
    const transaction = await this.transactions.get(businessId, reference, productType ?? null);
    if (!transaction) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${reference} not found`);
    return transaction;
  }

  /** What the business collected from `from` on, by product type. */
  collectedSince(businessId: string, from: Date): Promise<CollectedTotal[]> {
    return this.transactions.collectedSince(businessId, from.toISOString());
  }

  /** Checked before the first byte is sent, so a bad range answers an error envelope, not a broken file. */
  export(businessId: string, query: TransactionsExportQuery): AsyncIterable<TransactionResponse> {
    checkRange(query);
    const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
    if (days > maxExportDays) {
      throw invalidFields(['from', 'to'], `An export covers at most ${maxExportDays} days: narrow from and to`);
    }
    return this.transactions.oldestFirst(businessId, query);
  }

  private cursorAt(businessId: string, place: TransactionPlace): string {
    return this.cursors.issue('transactions', businessId, `${place.createdAt} ${place.arrival}`);
  }

  private placeOf(businessId: string, cursor: string): TransactionPlace {
    const place = placeText.exec(this.cursors.read('transactions', businessId, cursor));
    // Sealed by this gateway, so always of this form; checked all the same before it reaches SQL.
    if (!place) throw notIssued();
    return { createdAt: place[1], arrival: place[2] };
  }
}

/** `from` and `to` arrive as canonical instants (see IsInstant), which Date.parse reads exactly. */
function checkRange(filters: TransactionFilters): void {
  if (filters.from && filters.to && Date.parse(filters.from) >= Date.parse(filters.to)) {
    throw invalidFields(['from', 'to'], 'from must be before to');
  }
}
