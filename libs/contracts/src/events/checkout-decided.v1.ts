import { IsIn, IsOptional, IsString } from 'class-validator';

import { ChargeFigures } from '../http/charge';
import { PaymentMethod, paymentMethods } from '../http/checkout/checkout.dto';
import { ForCheckout } from '../messages/scopes';
import { Nested } from '../validation/nested';

/** outlet-service → gateway on Topics.checkoutPayments: how a checkout ended, keyed by business id. */
export const CheckoutDecidedV1 = 'checkout.decided.v1';

/**
 * How a checkout ended, as the ledger decided it: the first payment booked or the first
 * closing wins, and nothing changes it afterwards. Also the answer of several outlet commands.
 */
export class CheckoutOutcome extends ForCheckout {
  @IsIn(['SUCCESS', 'FAILED'])
  status!: 'SUCCESS' | 'FAILED';

  @IsOptional()
  @IsIn(paymentMethods)
  method!: PaymentMethod | null;

  /** The payment that paid it: transfer session id, card charge id or QR payment id. */
  @IsOptional()
  @IsString()
  paymentId!: string | null;

  @IsOptional()
  @IsString()
  maskedCard!: string | null;

  @IsString()
  comment!: string;

  /** A paid checkout's charge; absent on a failed one. */
  @IsOptional()
  @Nested(() => ChargeFigures)
  charge?: ChargeFigures;
}

export class CheckoutDecidedV1Payload extends CheckoutOutcome {}
