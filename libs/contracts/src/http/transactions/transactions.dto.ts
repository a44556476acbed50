import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsInstant } from '../../validation/instant';
import { NestedList } from '../../validation/nested';
import { ChargeFigures } from '../charge';
import { MAX_PAGE_SIZE, PageCursor, QueryInt } from '../page.query';
import { TransactionStatus, transactionStatuses } from '../transfers/transfer.response';

/** Every product type a transaction of the history is listed under: what `productType` filters by. */
export const transactionProductTypes = [
  'checkout',
  'collection',
  'deposit',
  'pos',
  'payout',
  'internal_transfer',
  'sweep',
  'refund',
  'card',
] as const;
export type TransactionProductType = (typeof transactionProductTypes)[number];

/** What GET /transactions and its export filter by; the filters combine. */
export interface TransactionFilters {
  status?: TransactionStatus;
  productType?: TransactionProductType;
  outletId?: string;
  reference?: string;
  from?: string;
  to?: string;
}

/** The filters both take besides the date range; each is optional. */
abstract class TransactionFilterFields {
  @IsOptional()
  @IsIn(transactionStatuses)
  status?: TransactionStatus;

  /** A product type; `refund` also matches refunds announced under the product they refund (`card`). */
  @IsOptional()
  @IsIn(transactionProductTypes)
  productType?: TransactionProductType;

  /** Transactions on a wallet of this outlet; an internal transfer matches the outlets of both its wallets. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  outletId?: string;

  /** The transaction's reference, exactly. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  reference?: string;
}

/**
 * GET /transactions/{reference}: references are unique within a product type, not across
 * them (your transfer may be named like one of our refunds), so name the product type when
 * yours may look like ours; without it, the newest transaction of that reference answers.
 */
export class TransactionLookupQuery {
  @IsOptional()
  @IsIn(transactionProductTypes)
  productType?: TransactionProductType;
}

/** GET /transactions: newest first, `limit` at a time; pass `nextCursor` back as `cursor` for the next page. */
export class TransactionsQuery extends TransactionFilterFields implements TransactionFilters {
  /** From this instant on (ISO 8601, inclusive), by when the transaction was created. */
  @IsOptional()
  @IsInstant()
  from?: string;

  /** Before this instant (exclusive). */
  @IsOptional()
  @IsInstant()
  to?: string;

  @PageCursor()
  cursor?: string;

  @QueryInt(1, MAX_PAGE_SIZE)
  limit: number = 20;
}

/** GET /transactions/export: a date range is required, at most 366 days. */
export class TransactionsExportQuery extends TransactionFilterFields implements TransactionFilters {
  /** From this instant on (ISO 8601, inclusive). */
  @IsInstant()
  from!: string;

  /** Before this instant (exclusive). */
  @IsInstant()
  to!: string;
}

/** One transaction of the business, as its latest money event described it. */
export class TransactionResponse extends ChargeFigures {
  @IsString()
  reference!: string;

  @IsString()
  productType!: string;

  @IsIn(['CREDIT', 'DEBIT'])
  transactionType!: 'CREDIT' | 'DEBIT';

  @IsIn(transactionStatuses)
  transactionStatus!: TransactionStatus;

  /** kobo, as a string: netAmount + fee (docs/pricing.md). */
  @Matches(/^\d+$/)
  amount!: string;

  /** The account or wallet the money moved on. */
  @IsString()
  transactionAccount!: string;

  @IsOptional()
  @IsString()
  outletId!: string | null;

  @IsOptional()
  @IsString()
  sessionId!: string | null;

  @IsOptional()
  @IsString()
  customerReference!: string | null;

  @IsOptional()
  @IsString()
  comment!: string | null;

  /** The webhook event that last described it, e.g. fundAccount.success. */
  @IsString()
  event!: string;

  @IsISO8601()
  createdAt!: string;

  @IsISO8601()
  updatedAt!: string;
}

export class TransactionPage {
  @NestedList(() => TransactionResponse)
  items!: TransactionResponse[];

  /** null on the last page. */
  @IsOptional()
  @IsString()
  nextCursor!: string | null;
}
