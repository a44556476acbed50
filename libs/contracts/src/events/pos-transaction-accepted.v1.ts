import { IsIn, IsNotEmpty, IsString } from 'class-validator';

import { PosTransactionFields } from './pos-transaction-fields';

/**
 * An accepted POS submission on Topics.posTransactions, keyed by serial number. Card data
 * (PAN, PIN block, track 2, ICC data, expiry) travels only inside `sealedCard`.
 */
export const PosTransactionAcceptedV1 = 'pos.transaction.accepted.v1';

export class PosTransactionAcceptedV1Payload extends PosTransactionFields {
  /** test: the sandbox issuer decides; live: real card rails. */
  @IsIn(['test', 'live'])
  mode!: 'test' | 'live';

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

  /** AES-256-GCM sealed JSON of {pan, pinBlock, track2Data, iccData, cardExpiryDate}, bound to the reference. */
  @IsString()
  @IsNotEmpty()
  sealedCard!: string;
}
