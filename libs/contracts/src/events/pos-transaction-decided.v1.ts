import { IsBoolean, IsISO8601, IsNotEmpty, IsOptional, IsString } from 'class-validator';

import { IsKoboAmount } from '../validation/kobo-amount';

/** card-processor's decision on Topics.posOutcomes; outlet-service credits or reports it. */
export const PosTransactionDecidedV1 = 'pos.transaction.decided.v1';

export class PosTransactionDecidedV1Payload {
  @IsString()
  @IsNotEmpty()
  reference!: string;

  @IsString()
  @IsNotEmpty()
  businessId!: string;

  @IsString()
  @IsNotEmpty()
  serialNumber!: string;

  @IsOptional()
  @IsString()
  outletId!: string | null;

  @IsKoboAmount()
  amount!: string;

  @IsString()
  maskedPan!: string;

  @IsBoolean()
  approved!: boolean;

  @IsOptional()
  @IsString()
  declineReason!: string | null;

  @IsISO8601()
  decidedAt!: string;
}
