import { IsIn, IsISO8601, IsOptional, IsString, Matches } from 'class-validator';

export const transactionStatuses = ['SUCCESS', 'FAILED', 'PROCESSING'] as const;
export type TransactionStatus = (typeof transactionStatuses)[number];

export class InternalTransferResponse {
  @IsString()
  reference!: string;

  @IsIn(transactionStatuses)
  transactionStatus!: TransactionStatus;

  @Matches(/^\d+$/)
  amount!: string;

  @IsString()
  sourceWalletId!: string;

  @IsString()
  destinationWalletId!: string;

  @IsOptional()
  @IsString()
  narration!: string | null;

  @IsISO8601()
  createdAt!: string;
}

export class BankTransferResponse {
  @IsString()
  reference!: string;

  /** PROCESSING until the bank rail settles; then SUCCESS or FAILED (see the webhook). */
  @IsIn(transactionStatuses)
  transactionStatus!: TransactionStatus;

  @Matches(/^\d+$/)
  amount!: string;

  @IsString()
  sourceWalletId!: string;

  @IsString()
  bankCode!: string;

  @IsString()
  accountNumber!: string;

  @IsString()
  accountName!: string;

  @IsOptional()
  @IsString()
  narration!: string | null;

  @IsISO8601()
  createdAt!: string;
}
