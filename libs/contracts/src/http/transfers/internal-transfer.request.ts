import { IsNotEmpty, IsString } from 'class-validator';

import { TransferRequest } from './transfer.request';

/** POST /transfer/internal: between two wallets of your business. */
export class InternalTransferRequest extends TransferRequest {
  @IsString()
  @IsNotEmpty()
  destinationWalletId!: string;
}
