import { Injectable } from '@nestjs/common';
import { BusinessMode, WalletResponse } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { camelCased, firstRow, singleRow } from '@payments/platform-database';
import { apiError } from '@payments/platform-envelope';
import { LRUCache } from 'lru-cache';
import { EntityManager } from 'typeorm';

export type WalletKind = 'collection' | 'deposit' | SystemWalletKind;

/** The wallets a business has from its onboarding on, one of each: not an outlet's. */
export type SystemWalletKind = 'settlement' | 'rail' | 'suspense' | 'revenue';
const systemWalletKinds: SystemWalletKind[] = ['settlement', 'rail', 'suspense', 'revenue'];

export interface Wallet {
  id: string;
  businessId: string;
  outletId: string | null;
  type: WalletKind;
  accountNumber: string | null;
  accountName: string;
  currency: 'NGN';
  status: 'active' | 'frozen';
  ledgerBalance: bigint;
  heldBalance: bigint;
  allowNegative: boolean;
  createdAt: Date;
}

interface WalletRow {
  id: string;
  business_id: string;
  outlet_id: string | null;
  type: WalletKind;
  account_number: string | null;
  account_name: string;
  currency: 'NGN';
  status: 'active' | 'frozen';
  ledger_balance: string;
  held_balance: string;
  allow_negative: boolean;
  created_at: Date;
}

/** What events say of a wallet: its account number (its id for wallets without one) and its outlet, if any. */
export interface WalletAccount {
  accountNumber: string;
  outletId: string | null;
}

export const availableBalance = (wallet: Wallet): bigint => wallet.ledgerBalance - wallet.heldBalance;

export function toWalletResponse(wallet: Wallet): WalletResponse {
  return {
    walletId: wallet.id,
    type: wallet.type as WalletResponse['type'],
    accountNumber: wallet.accountNumber ?? '',
    accountName: wallet.accountName,
    currency: wallet.currency,
    ledgerBalance: wallet.ledgerBalance.toString(),
    availableBalance: availableBalance(wallet).toString(),
    status: wallet.status,
    createdAt: wallet.createdAt.toISOString(),
  };
}

/** Every query names the business: a wallet of another business is simply not found. */
@Injectable()
export class WalletsRepository {
  /** A wallet's account number and outlet never change once it exists: kept for the events that name them. */
  private readonly accounts = new LRUCache<string, WalletAccount>({ max: 100_000 });
  /** A business's system wallets exist from its onboarding on, and never change. */
  private readonly systemWallets = new LRUCache<string, Record<SystemWalletKind, string>>({ max: 100_000 });

  /** The ids of the business's system wallets; INVALID_TENANT before its onboarding. */
  async systemWalletIds(em: EntityManager, businessId: string): Promise<Record<SystemWalletKind, string>> {
    const cached = this.systemWallets.get(businessId);
    if (cached) return cached;
    const rows = (await em.query(`SELECT id, type FROM outlets.wallets WHERE business_id = $1 AND type = ANY($2)`, [
      businessId,
      systemWalletKinds,
    ])) as { id: string; type: SystemWalletKind }[];
    const ids = Object.fromEntries(rows.map((row) => [row.type, row.id])) as Record<SystemWalletKind, string>;
    if (systemWalletKinds.some((kind) => !ids[kind])) {
      throw apiError('INVALID_TENANT', 'This business has no agent assignment; contact support to complete onboarding');
    }
    this.systemWallets.set(businessId, ids);
    return ids;
  }

  /**
   * The wallet's account number (its id for wallets without one) and outlet, or null when the
   * business has no such wallet.
   */
  async accountOf(em: EntityManager, businessId: string, walletId: string): Promise<WalletAccount | null> {
    const key = `${businessId}:${walletId}`;
    const cached = this.accounts.get(key);
    if (cached) return cached;
    const row = await firstRow<{ account_number: string | null; outlet_id: string | null }>(
      em,
      `SELECT account_number, outlet_id FROM outlets.wallets WHERE business_id = $1 AND id = $2`,
      [businessId, walletId],
    );
    if (!row) return null;
    const account = { accountNumber: row.account_number?.trim() ?? walletId, outletId: row.outlet_id };
    this.accounts.set(key, account);
    return account;
  }

  async create(
    em: EntityManager,
    wallet: {
      businessId: string;
      outletId: string | null;
      type: WalletKind;
      accountName: string;
      withAccountNumber: boolean;
    },
  ): Promise<Wallet> {
    const row = await singleRow<WalletRow>(
      em,
      `INSERT INTO outlets.wallets (id, business_id, outlet_id, type, account_number, account_name, allow_negative)
       VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN nextval('outlets.account_number_seq')::text END, $6, $4 = 'rail')
       RETURNING *`,
      [newUlid(), wallet.businessId, wallet.outletId, wallet.type, wallet.withAccountNumber, wallet.accountName],
    );
    return toWallet(row);
  }

  async ofOutlets(em: EntityManager, businessId: string, outletIds: string[]): Promise<Wallet[]> {
    if (outletIds.length === 0) return [];
    const rows = (await em.query(`SELECT * FROM outlets.wallets WHERE business_id = $1 AND outlet_id = ANY($2)`, [
      businessId,
      outletIds,
    ])) as WalletRow[];
    return rows.map(toWallet);
  }

  async ofType(em: EntityManager, businessId: string, type: WalletKind): Promise<Wallet[]> {
    const rows = (await em.query(`SELECT * FROM outlets.wallets WHERE business_id = $1 AND type = $2 ORDER BY id`, [
      businessId,
      type,
    ])) as WalletRow[];
    return rows.map(toWallet);
  }

  /**
   * Locks the wallets for update, always in id order, so two transfers touching the same
   * pair of wallets in opposite directions queue instead of deadlocking.
   */
  async lock(em: EntityManager, businessId: string, ids: string[]): Promise<Map<string, Wallet>> {
    const rows = (await em.query(
      `SELECT * FROM outlets.wallets WHERE business_id = $1 AND id = ANY($2) ORDER BY id FOR UPDATE`,
      [businessId, [...new Set(ids)]],
    )) as WalletRow[];
    const wallets = new Map(rows.map((row) => [row.id, toWallet(row)]));
    const missing = ids.find((id) => !wallets.has(id));
    if (missing) throw apiError('WALLET_NOT_FOUND', `Wallet ${missing} not found`);
    return wallets;
  }

  /** One of the business's system wallets, unlocked: pass its id to lock() with the others. */
  async systemWallet(em: EntityManager, businessId: string, type: SystemWalletKind): Promise<Wallet> {
    const row = await firstRow<WalletRow>(em, `SELECT * FROM outlets.wallets WHERE business_id = $1 AND type = $2`, [
      businessId,
      type,
    ]);
    if (!row) {
      throw apiError('INVALID_TENANT', 'This business has no agent assignment; contact support to complete onboarding');
    }
    return toWallet(row);
  }

  /** The wallet behind a virtual account number, with its business's mode. */
  async byAccountNumber(em: EntityManager, accountNumber: string): Promise<(Wallet & { mode: BusinessMode }) | null> {
    const row = await firstRow<WalletRow & { mode: BusinessMode }>(
      em,
      `SELECT w.*, t.mode FROM outlets.wallets w JOIN outlets.tenants t USING (business_id) WHERE w.account_number = $1`,
      [accountNumber],
    );
    return row ? { ...toWallet(row), mode: row.mode } : null;
  }

  async changeHeld(em: EntityManager, walletId: string, delta: bigint): Promise<void> {
    await em.query(`UPDATE outlets.wallets SET held_balance = held_balance + $2 WHERE id = $1`, [
      walletId,
      delta.toString(),
    ]);
  }
}

function toWallet(row: WalletRow): Wallet {
  return { ...camelCased(row), ledgerBalance: BigInt(row.ledger_balance), heldBalance: BigInt(row.held_balance) };
}
