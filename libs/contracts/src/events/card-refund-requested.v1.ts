import { IsIn, IsISO8601, IsNotEmpty, IsString } from 'class-validator';

import { ForBusiness } from '../messages/scopes';
import { IsKoboAmount } from '../validation/kobo-amount';

/**
 * outlet-service → card-processor on Topics.cardRefunds: a refund of a card payment is due, and
 * is paid back to the card through the card network that approved the payment. Its amount is
 * held on the wallet that received the payment until card.refund.decided.v1 comes back.
 */
export const CardRefundRequestedV1 = 'card.refund.requested.v1';

export class CardRefundRequestedV1Payload extends ForBusiness {
  @IsString()
  @IsNotEmpty()
  refundReference!: string;

  /** How the card paid: a checkout's card charge, or a POS transaction. */
  @IsIn(['checkout', 'pos'])
  paymentKind!: 'checkout' | 'pos';

  /** The checkout reference, or the POS transaction's reference. */
  @IsString()
  @IsNotEmpty()
  paymentReference!: string;

  @IsKoboAmount()
  amount!: string;

  @IsISO8601()
  requestedAt!: string;
}
