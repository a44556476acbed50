import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsKoboAmount } from '../../validation/kobo-amount';
import { ChargeFigures } from '../charge';

/** POST /sandbox/virtual-accounts/{accountNumber}/credit: simulates an inbound bank transfer. */
export class CreditVirtualAccountRequest {
  @IsKoboAmount()
  amount!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  senderName?: string;

  @IsOptional()
  @Matches(/^\d{10}$/, { message: 'senderAccountNumber must be 10 digits' })
  senderAccountNumber?: string;

  @IsOptional()
  @Matches(/^\d{3,6}$/, { message: 'senderBankCode must be 3 to 6 digits' })
  senderBankCode?: string;

  /** The rail's session id; a repeated one credits once. Generated when absent. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9-]{1,64}$/, { message: 'sessionId must be 1 to 64 letters, digits or "-"' })
  sessionId?: string;
}

export class CreditVirtualAccountResponse extends ChargeFigures {
  @IsString()
  sessionId!: string;

  @IsString()
  transactionReference!: string;

  @IsString()
  accountNumber!: string;

  @Matches(/^\d+$/)
  amount!: string;

  @IsString()
  transactionStatus!: 'SUCCESS';
}
