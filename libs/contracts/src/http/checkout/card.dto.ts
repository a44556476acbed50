import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsCalendarDate } from '../../validation/calendar-date';
import { IsCardNumber } from '../../validation/luhn';
import { Nested } from '../../validation/nested';
import { verificationSteps } from './verification-steps';

export const nextActions = ['none', ...verificationSteps] as const;
export type NextAction = (typeof nextActions)[number];

/** POST /checkout/{reference}/card-payment */
export class CardPaymentRequest {
  @IsCardNumber()
  cardNumber!: string;

  /** MM/YY */
  @Matches(/^(0[1-9]|1[0-2])\/\d{2}$/, { message: 'expiryDate must be MM/YY' })
  expiryDate!: string;

  @Matches(/^\d{3,4}$/, { message: 'cvv must be 3 or 4 digits' })
  cvv!: string;

  /** Needed by cards that ask for a PIN; may also be sent when asked (nextAction "pin"). */
  @IsOptional()
  @Matches(/^\d{4}$/, { message: 'pin must be 4 digits' })
  pin?: string;
}

export class BillingAddress {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  line1!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  city!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  state!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  postalCode!: string;

  /** ISO 3166-1 alpha-2, e.g. NG */
  @Matches(/^[A-Z]{2}$/, { message: 'country must be a two-letter ISO code' })
  country!: string;
}

/** POST /checkout/{reference}/card-authorization: exactly what the last answer asked for. */
export class CardAuthorizationRequest {
  @IsOptional()
  @Matches(/^\d{4}$/, { message: 'pin must be 4 digits' })
  pin?: string;

  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'otp must be 6 digits' })
  otp?: string;

  /** YYYY-MM-DD */
  @IsOptional()
  @IsCalendarDate({ message: 'birthday must be a real date, YYYY-MM-DD' })
  birthday?: string;

  @IsOptional()
  @Matches(/^(\+234|0)[789][01]\d{8}$/, { message: 'phone must be a Nigerian mobile number, e.g. 08031234567' })
  phone?: string;

  @IsOptional()
  @Nested(() => BillingAddress)
  address?: BillingAddress;
}

export class CardChargeResponse {
  @IsString()
  reference!: string;

  @IsIn(['SUCCESS', 'FAILED', 'PROCESSING'])
  transactionStatus!: 'SUCCESS' | 'FAILED' | 'PROCESSING';

  /** What to send next to card-authorization; "none" once the charge has ended. */
  @IsIn(nextActions)
  nextAction!: NextAction;

  /** nextAction "3ds": send the customer here; the bank's page completes the step. */
  @IsOptional()
  @IsString()
  redirectUrl?: string;

  /** nextAction "avs": the address fields to send. */
  @IsOptional()
  @IsString({ each: true })
  fields?: string[];

  /** After a wrong PIN or OTP: tries left before the charge fails. */
  @IsOptional()
  @IsInt()
  attemptsLeft?: number;

  @IsString()
  message!: string;
}
