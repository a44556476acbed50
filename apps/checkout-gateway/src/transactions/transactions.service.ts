import { Injectable } from '@nestjs/common';
import {
  TransactionFilters,
  TransactionPage,
  TransactionResponse,
  TransactionsExportQuery,
  TransactionsQuery,
} from '@payments/contracts';
import { apiError, invalidFields, ValidationFailedError } from '@payments/platform-envelope';

import { TransactionsRepository } from './transactions.repository';

/** The longest date range one export covers. */
const maxExportDays = 366;

/** The largest position PostgreSQL's bigint holds: no cursor this API issued names a larger one. */
const maxPosition = 2n ** 63n - 1n;

/**
 * The business's transaction history. A cursor is the position of the last transaction a page
 * showed, so the next page starts right after it, however many transactions arrive meanwhile.
 */
@Injectable()
export class TransactionsService {
  constructor(private readonly transactions: TransactionsRepository) {}

  async page(businessId: string, query: TransactionsQuery): Promise<TransactionPage> {
    checkRange(query);
    const before = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.transactions.newestFirst(businessId, query, before, query.limit + 1);
    const items = rows.slice(0, query.limit);
    const more = rows.length > query.limit;
    return {
      items: items.map((row) => row.transaction),
      nextCursor: more ? encodeCursor(items[items.length - 1].position) : null,
    };
  }

  async get(businessId: string, reference: string, productType?: string): Promise<TransactionResponse> {
    const transaction = await this.transactions.get(businessId, reference, productType ?? null);
    if (!transaction) throw apiError('TRANSACTION_NOT_FOUND', `Transaction ${reference} not found`);
    return transaction;
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
}

/** `from` and `to` arrive as canonical instants (see IsInstant), which Date.parse reads exactly. */
function checkRange(filters: TransactionFilters): void {
  if (filters.from && filters.to && Date.parse(filters.from) >= Date.parse(filters.to)) {
    throw invalidFields(['from', 'to'], 'from must be before to');
  }
}

function encodeCursor(position: bigint): string {
  return Buffer.from(position.toString()).toString('base64url');
}

function decodeCursor(cursor: string): bigint {
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!/^[1-9]\d{0,18}$/.test(text) || BigInt(text) > maxPosition) {
    throw new ValidationFailedError([{ field: 'cursor', messages: ['cursor must be a nextCursor this API returned'] }]);
  }
  return BigInt(text);
}
