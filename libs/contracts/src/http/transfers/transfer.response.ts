import { IsIn, IsISO8601, IsOptional, IsString, Matches } from 'class-validator';

import { ChargeFigures } from '../charge';

export const transactionStatuses = ['SUCCESS', 'FAILED', 'PROCESSING'] as const;
export type TransactionStatus = (typeof transactionStatuses)[number];

/** What every transfer answers with: a payout's fee is taken from its amount, an internal transfer is free. */
export abstract class TransferResponse extends ChargeFigures {
  @IsString()
  reference!: string;

  /** An internal transfer is SUCCESS or FAILED at once; a payout is PROCESSING until the bank rail settles (see the webhook). */
  @IsIn(transactionStatuses)
  transactionStatus!: TransactionStatus;

  @Matches(/^\d+$/)
  amount!: string;

  @IsString()
  sourceWalletId!: string;

  @IsOptional()
  @IsString()
  narration!: string | null;

  @IsISO8601()
  createdAt!: string;
}

export class InternalTransferResponse extends TransferResponse {
  @IsString()
  destinationWalletId!: string;
}

export class BankTransferResponse extends TransferResponse {
  @IsString()
  bankCode!: string;

  @IsString()
  accountNumber!: string;

  @IsString()
  accountName!: string;
}
