import { IsIn, IsISO8601, IsOptional, IsString, Matches } from 'class-validator';

import { Nested } from '../../validation/nested';

export const walletTypes = ['collection', 'deposit', 'settlement'] as const;
export type WalletType = (typeof walletTypes)[number];

/** A wallet as partners see it. Balances are kobo, as strings. */
export class WalletResponse {
  @IsString()
  walletId!: string;

  @IsIn(walletTypes)
  type!: WalletType;

  @Matches(/^\d{10}$/)
  accountNumber!: string;

  @IsString()
  accountName!: string;

  @IsIn(['NGN'])
  currency!: 'NGN';

  @Matches(/^-?\d+$/)
  ledgerBalance!: string;

  @Matches(/^-?\d+$/)
  availableBalance!: string;

  @IsIn(['active', 'frozen'])
  status!: 'active' | 'frozen';

  @IsISO8601()
  createdAt!: string;
}

export class OutletResponse {
  /** ULID */
  @IsString()
  outletId!: string;

  @IsString()
  accountName!: string;

  @IsOptional()
  @IsString()
  externalReference!: string | null;

  @IsOptional()
  @IsString()
  address!: string | null;

  @Nested(() => WalletResponse)
  collectionWallet!: WalletResponse;

  @Nested(() => WalletResponse)
  depositWallet!: WalletResponse;

  @IsISO8601()
  createdAt!: string;
}
