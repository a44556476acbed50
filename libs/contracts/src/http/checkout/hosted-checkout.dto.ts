import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString, Matches } from 'class-validator';

import { PaymentMethod, paymentMethods } from './checkout.dto';

/**
 * GET /checkout/session/{reference}: what the hosted page may know of a checkout. The
 * reference in its link is the page's only credential, so this carries nothing a customer
 * should not see (no email, metadata or callback URL).
 */
export class HostedCheckoutView {
  @IsString()
  reference!: string;

  @IsString()
  businessName!: string;

  /** A sandbox checkout: test cards and the sandbox bank and wallet apply. */
  @IsBoolean()
  testMode!: boolean;

  @Matches(/^\d+$/)
  amount!: string;

  @IsIn(paymentMethods, { each: true })
  paymentMethod!: PaymentMethod[];

  @IsIn(['PROCESSING', 'SUCCESS', 'FAILED'])
  transactionStatus!: 'PROCESSING' | 'SUCCESS' | 'FAILED';

  @IsOptional()
  @IsIn(paymentMethods)
  usedMethod!: PaymentMethod | null;

  @IsISO8601()
  expiresAt!: string;

  @IsOptional()
  @IsString()
  returnUrl!: string | null;
}
