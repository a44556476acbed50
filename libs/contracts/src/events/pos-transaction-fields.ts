import { IsNotEmpty, IsOptional, IsString } from 'class-validator';

import { ForBusiness } from '../messages/scopes';
import { IsKoboAmount } from '../validation/kobo-amount';

/** What every POS transaction event says of the transaction: its reference, terminal, outlet and amount. */
export abstract class PosTransactionFields extends ForBusiness {
  @IsString()
  @IsNotEmpty()
  reference!: string;

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
}
