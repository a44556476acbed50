import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsKoboAmount } from '../../validation/kobo-amount';

/** A money command's reference: your idempotency key. Reuse it only to retry the same request. */
export const referencePattern = /^[A-Za-z0-9._:-]{1,64}$/;
export const referenceMessage = 'reference must be 1 to 64 letters, digits, ".", "_", ":" or "-"';

/** What every transfer request carries: its reference, the amount and the wallet it leaves. */
export abstract class TransferRequest {
  @Matches(referencePattern, { message: referenceMessage })
  reference!: string;

  @IsKoboAmount()
  amount!: string;

  @IsString()
  @IsNotEmpty()
  sourceWalletId!: string;

  @IsOptional()
  @IsString()
  @MaxLength(140)
  narration?: string;
}
