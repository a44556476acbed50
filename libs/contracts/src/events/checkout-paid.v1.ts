import { IsIn, IsOptional, IsString } from 'class-validator';

import { ForCheckout } from '../messages/scopes';
import { IsKoboAmount } from '../validation/kobo-amount';

/** Written by earlier versions for paid checkouts; the gateway still reads it during an upgrade. */
export const CheckoutPaidV1 = 'checkout.paid.v1';

export class CheckoutPaidV1Payload extends ForCheckout {
  @IsIn(['pay-with-transfer', 'card'])
  method!: 'pay-with-transfer' | 'card';

  @IsKoboAmount()
  amount!: string;

  @IsString()
  sessionId!: string;

  @IsOptional()
  @IsString()
  maskedCard?: string;
}
