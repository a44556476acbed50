import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, Min } from 'class-validator';

import { NestedList } from '../../validation/nested';

/** Longest grace period a rolled key pair may keep working. */
export const maxKeyGraceHours = 72;

/** POST /business/keys/roll. */
export class RollKeysRequest {
  /** How long the pair you call with keeps working, 0 (refused at once) to 72; 24 by default. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(maxKeyGraceHours)
  gracePeriodHours?: number;
}

/** The new pair, shown once; the previous pair works until `previousKeyExpiresAt`. */
export class RolledKeysResponse {
  @IsString()
  businessId!: string;

  @IsString()
  apiKey!: string;

  @IsString()
  apiSecret!: string;

  @IsISO8601()
  previousKeyExpiresAt!: string;
}

export const keyStatuses = ['active', 'expiring', 'expired'] as const;

/** A key pair as listed: never the key itself, only its last characters. */
export class BusinessKeyResponse {
  /** The key's prefix and last four characters, e.g. `pk_test_…a1b2`; null for a key issued before rotation existed. */
  @IsOptional()
  @IsString()
  apiKeyHint!: string | null;

  @IsIn(keyStatuses)
  status!: (typeof keyStatuses)[number];

  @IsISO8601()
  createdAt!: string;

  @IsOptional()
  @IsISO8601()
  expiresAt!: string | null;
}

export const keyAuditActions = ['created', 'rolled', 'expired'] as const;

/** One entry of the key audit trail. */
export class KeyAuditEntry {
  @IsIn(keyAuditActions)
  action!: (typeof keyAuditActions)[number];

  @IsOptional()
  @IsString()
  apiKeyHint!: string | null;

  /** `api` or `operator`, for a roll. */
  @IsOptional()
  @IsString()
  actor!: string | null;

  @IsISO8601()
  at!: string;
}

/** GET /business/keys: the pairs that work or worked, and what happened to them. */
export class BusinessKeysResponse {
  @NestedList(() => BusinessKeyResponse)
  keys!: BusinessKeyResponse[];

  @NestedList(() => KeyAuditEntry)
  audit!: KeyAuditEntry[];
}
