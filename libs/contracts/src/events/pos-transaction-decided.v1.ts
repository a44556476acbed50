import { IsBoolean, IsISO8601, IsOptional, IsString } from 'class-validator';

import { PosTransactionFields } from './pos-transaction-fields';

/** card-processor's decision on Topics.posOutcomes; outlet-service credits or reports it. */
export const PosTransactionDecidedV1 = 'pos.transaction.decided.v1';

export class PosTransactionDecidedV1Payload extends PosTransactionFields {
  @IsBoolean()
  approved!: boolean;

  @IsOptional()
  @IsString()
  declineReason!: string | null;

  @IsISO8601()
  decidedAt!: string;
}
