import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsKoboAmount } from '../../validation/kobo-amount';
import { referenceMessage, referencePattern } from './internal-transfer.request';

/** POST /transfer/bank: a payout from a deposit wallet to a bank account. */
export class BankTransferRequest {
  @Matches(referencePattern, { message: referenceMessage })
  reference!: string;

  @IsKoboAmount()
  amount!: string;

  @IsString()
  @IsNotEmpty()
  sourceWalletId!: string;

  /** CBN bank code, 3 to 6 digits. */
  @Matches(/^\d{3,6}$/, { message: 'bankCode must be 3 to 6 digits' })
  bankCode!: string;

  /** NUBAN, 10 digits. */
  @Matches(/^\d{10}$/, { message: 'accountNumber must be 10 digits' })
  accountNumber!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  accountName!: string;

  @IsOptional()
  @IsString()
  @MaxLength(140)
  narration?: string;
}
