import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsEmail,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  registerDecorator,
} from 'class-validator';

import { IsHttpUrl } from '../../validation/http-url';
import { HasOnlyWholeNumbers } from '../../validation/json-numbers';
import { IsKoboAmount } from '../../validation/kobo-amount';
import { MaxCharacters } from '../../validation/max-characters';

export const paymentMethods = ['card', 'pay-with-transfer', 'qr-wallet'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** Serialised metadata is kept to 4 KiB: it rides on every event of the checkout. */
export const MAX_METADATA_BYTES = 4096;

function IsSmallJson(maxBytes: number): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isSmallJson',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be at most ${maxBytes} bytes as JSON` },
      validator: {
        validate: (value: unknown) => value === undefined || Buffer.byteLength(JSON.stringify(value)) <= maxBytes,
      },
    });
}

/** POST /payin/charge/requests */
export class CreateCheckoutRequest {
  @IsKoboAmount()
  amount!: string;

  @MaxCharacters(200)
  @IsNotEmpty({ message: 'accountName is required' })
  @IsString({ message: 'accountName is required' })
  accountName!: string;

  @IsIn(paymentMethods, { each: true, message: `each paymentMethod must be one of ${paymentMethods.join(', ')}` })
  @ArrayUnique({ message: 'paymentMethod must not repeat a method' })
  @ArrayNotEmpty({ message: 'paymentMethod must list at least one method' })
  @IsArray({ message: 'paymentMethod must be an array' })
  paymentMethod!: PaymentMethod[];

  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @IsHttpUrl()
  @MaxLength(2000)
  callBackUrl?: string;

  /** Where the hosted page sends the customer once the checkout ends, with ?reference=&status=. */
  @IsOptional()
  @IsHttpUrl()
  @MaxLength(2000)
  returnUrl?: string;

  /** Strings, booleans, null, arrays, objects and whole numbers; other numbers go as strings. */
  @IsOptional()
  @IsObject()
  @IsSmallJson(MAX_METADATA_BYTES)
  @HasOnlyWholeNumbers()
  metadata?: Record<string, unknown>;
}

export class CreateCheckoutResponse {
  @IsString()
  reference!: string;

  /** The hosted checkout page, carrying checkoutReference=<reference>. */
  @IsUrl({ require_tld: false })
  link!: string;
}

export class CheckoutResponse {
  @IsString()
  reference!: string;

  @Matches(/^\d+$/)
  amount!: string;

  @IsString()
  accountName!: string;

  @IsIn(paymentMethods, { each: true })
  paymentMethod!: PaymentMethod[];

  @IsOptional()
  @IsIn(paymentMethods)
  usedMethod!: PaymentMethod | null;

  @IsIn(['PROCESSING', 'SUCCESS', 'FAILED'])
  transactionStatus!: 'PROCESSING' | 'SUCCESS' | 'FAILED';

  @IsOptional()
  @IsString()
  email!: string | null;

  @IsOptional()
  @IsString()
  callBackUrl!: string | null;

  @IsOptional()
  @IsString()
  returnUrl!: string | null;

  @IsOptional()
  @IsObject()
  metadata!: Record<string, unknown> | null;

  /** First 6 and last 4 digits, once a card was used. */
  @IsOptional()
  @IsString()
  maskedCard!: string | null;

  @IsISO8601()
  expiresAt!: string;

  @IsISO8601()
  createdAt!: string;

  @IsISO8601()
  updatedAt!: string;
}

/** POST /checkout/{reference}/pay-with-transfer: where the customer sends the money. */
export class CheckoutAccountResponse {
  @Matches(/^\d{10}$/)
  accountNumber!: string;

  @IsString()
  accountName!: string;

  @IsString()
  bankName!: string;

  /** Exactly this many kobo; other amounts are refused. */
  @Matches(/^\d+$/)
  amount!: string;

  @IsISO8601()
  expiresAt!: string;
}

/** POST /checkout/{reference}/qr: what the customer scans. */
export class CheckoutQrResponse {
  @IsString()
  qrPayload!: string;

  /** The QR code as a PNG data URI, ready for an <img src>. */
  @IsString()
  qrCode!: string;
}

/** POST /sandbox/qr-wallet/pay: the sandbox wallet app scanned and paid. */
export class QrWalletPayRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  qrPayload!: string;
}

/** The sandbox wallet paid the checkout the QR code stands for. */
export class QrWalletPayResponse {
  @IsString()
  reference!: string;

  @IsIn(['SUCCESS'])
  transactionStatus!: 'SUCCESS';
}
