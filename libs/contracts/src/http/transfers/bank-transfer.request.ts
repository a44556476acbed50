import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

import { TransferRequest } from './transfer.request';

/** POST /transfer/bank: a payout from a deposit wallet to a bank account. */
export class BankTransferRequest extends TransferRequest {
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
}
