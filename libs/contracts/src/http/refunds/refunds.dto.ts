import { IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsInstant } from '../../validation/instant';
import { IsKoboAmount } from '../../validation/kobo-amount';
import { NestedList } from '../../validation/nested';
import { MAX_PAGE_SIZE, PageCursor, QueryInt } from '../page.query';

/** POST /refunds, with an Idempotency-Key header: a retry with the same key and body gets the first answer. */
export class CreateRefundRequest {
  /** A paid checkout's reference, or a POS transaction's reference. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  transactionReference!: string;

  /** Kobo; leave it out to refund all that is left. Partial refunds add up to the paid amount, never more. */
  @IsOptional()
  @IsKoboAmount()
  amount?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  reason?: string;
}

export const refundStatuses = ['PENDING', 'PROCESSED', 'FAILED'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** A refund: PENDING from the moment it is accepted (its amount held), then PROCESSED or FAILED. */
export class RefundResponse {
  @IsString()
  reference!: string;

  @IsString()
  transactionReference!: string;

  /** What was refunded: checkout or pos. */
  @IsString()
  productType!: string;

  @Matches(/^\d+$/)
  amount!: string;

  @IsOptional()
  @IsString()
  reason!: string | null;

  @IsIn(refundStatuses)
  status!: RefundStatus;

  @IsISO8601()
  createdAt!: string;

  @IsISO8601()
  updatedAt!: string;
}

/** GET /refunds: newest first, `limit` at a time; pass `nextCursor` back as `cursor` for the next page. */
export class ListRefundsQuery {
  @IsOptional()
  @IsIn(refundStatuses)
  status?: RefundStatus;

  /** The refunded payment's reference, exactly: a checkout's or a POS transaction's. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  transactionReference?: string;

  /** Accepted at or after this instant (ISO 8601). */
  @IsOptional()
  @IsInstant()
  from?: string;

  /** Accepted before this instant. */
  @IsOptional()
  @IsInstant()
  to?: string;

  @PageCursor()
  cursor?: string;

  @QueryInt(1, MAX_PAGE_SIZE)
  limit: number = 20;
}

export class RefundPage {
  @NestedList(() => RefundResponse)
  items!: RefundResponse[];

  /** null on the last page. */
  @IsOptional()
  @IsString()
  nextCursor!: string | null;
}

/**
 * A refunds page's cursor: the last refund it showed, which the next page starts after. Opaque
 * to partners; a text that is no cursor this API gave reads as null.
 */
export const refundCursor = {
  encode: (refundId: string): string => Buffer.from(refundId).toString('base64url'),
  decode: (cursor: string): string | null => {
    const id = Buffer.from(cursor, 'base64url').toString();
    return /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id) ? id : null;
  },
};
