import { IsNotEmpty, IsString } from 'class-validator';

import { PosPayload } from '../http/pos/pos-submission';
import { BusinessMode, IsBusinessMode } from '../validation/business-mode';
import { PosTransactionFields } from './pos-transaction-fields';

/**
 * An accepted POS submission on Topics.posTransactions, keyed by serial number. Card data
 * (PAN, PIN block, track 2, ICC data, expiry) travels only inside `sealedCard`.
 */
export const PosTransactionAcceptedV1 = 'pos.transaction.accepted.v1';

export class PosTransactionAcceptedV1Payload extends PosTransactionFields {
  /** test: the sandbox issuer decides; live: real card rails. */
  @IsBusinessMode()
  mode!: BusinessMode;

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

  /** AES-256-GCM sealed JSON of a `PosSealedCard`, bound to the reference. */
  @IsString()
  @IsNotEmpty()
  sealedCard!: string;
}

/**
 * The card data of a terminal's payload: sealed by pos-ingest, opened by card-processor alone.
 * `pinKeyUnderLmk` is the terminal's PIN key as the PIN security module wrapped it, which the
 * PIN block is under; absent when the terminal was given none.
 */
export type PosSealedCard = Pick<PosPayload, 'pan' | 'pinBlock' | 'track2Data' | 'iccData' | 'cardExpiryDate'> & {
  pinKeyUnderLmk?: string;
};

export function sealedCardOf(
  { pan, pinBlock, track2Data, iccData, cardExpiryDate }: PosPayload,
  pinKeyUnderLmk?: string | null,
): PosSealedCard {
  return { pan, pinBlock, track2Data, iccData, cardExpiryDate, ...(pinKeyUnderLmk ? { pinKeyUnderLmk } : {}) };
}
