import { IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';

import { IsKoboAmount } from '../validation/kobo-amount';

/**
 * An accepted POS submission on Topics.posTransactions, keyed by serial number. Card data
 * (PAN, PIN block, track 2, ICC data, expiry) travels only inside `sealedCard`.
 */
export const PosTransactionAcceptedV1 = 'pos.transaction.accepted.v1';

export class PosTransactionAcceptedV1Payload {
  @IsString()
  @IsNotEmpty()
  reference!: string;

  @IsString()
  @IsNotEmpty()
  businessId!: string;

  /** test: the sandbox issuer decides; live: real card rails. */
  @IsIn(['test', 'live'])
  mode!: 'test' | 'live';

  @IsString()
  @IsNotEmpty()
  serialNumber!: string;

  @IsOptional()
  @IsString()
  outletId!: string | null;

  @IsKoboAmount()
  amount!: string;

  @IsString()
  sequenceNumber!: string;

  @IsString()
  accountType!: string;

  @IsString()
  cardHolderName!: string;

  @IsString()
  aid!: string;

  @IsString()
  institutionCode!: string;

  @IsString()
  maskedPan!: string;

  /** AES-256-GCM sealed JSON of {pan, pinBlock, track2Data, iccData, cardExpiryDate}, bound to the reference. */
  @IsString()
  @IsNotEmpty()
  sealedCard!: string;
}
