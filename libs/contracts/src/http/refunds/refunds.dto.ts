import { IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsKoboAmount } from '../../validation/kobo-amount';

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
