import { IsBoolean, IsISO8601, IsNotEmpty, IsOptional, IsString } from 'class-validator';

import { ForBusiness } from '../messages/scopes';

/**
 * card-processor → outlet-service on Topics.cardRefundOutcomes: how the card network answered a
 * refund of a card payment. outlet-service pays it out of the held amount (refund.processed) or
 * releases the hold (refund.failed), once per refund.
 */
export const CardRefundDecidedV1 = 'card.refund.decided.v1';

export class CardRefundDecidedV1Payload extends ForBusiness {
  @IsString()
  @IsNotEmpty()
  refundReference!: string;

  @IsBoolean()
  approved!: boolean;

  @IsOptional()
  @IsString()
  declineReason!: string | null;

  @IsISO8601()
  decidedAt!: string;
}
