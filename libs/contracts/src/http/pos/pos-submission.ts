import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** POST /pos: a terminal's encrypted transaction. */
export class PosSubmissionRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  serialNumber!: string;

  /** Base64 of the AES-128-ECB ciphertext of the JSON payload (see the POS guide). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(16_384)
  data!: string;
}

export class PosSubmissionResponse {
  @IsString()
  reference!: string;

  @IsIn(['PROCESSING'])
  transactionStatus!: 'PROCESSING';
}

/** The plain payload a terminal encrypts: every field a string. */
export const posPayloadFields = [
  'accountType',
  'amount',
  'cardExpiryDate',
  'iccData',
  'pan',
  'pinBlock',
  'sequenceNumber',
  'cardHolderName',
  'aid',
  'track2Data',
  'institutionCode',
] as const;

export type PosPayload = Record<(typeof posPayloadFields)[number], string>;
