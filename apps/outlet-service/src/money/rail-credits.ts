import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { JournalEntry, LedgerService } from './ledger.service';
import { MoneyMove } from './money-moves.repository';
import { Charge, Product } from './price';
import { creditPostings, feeWalletIds, feeWalletsOf, PricingService } from './pricing.service';
import { SystemWalletKind, Wallet, WalletsRepository } from './wallets.repository';

export interface RailCredit {
  businessId: string;
  product: Product;
  walletId: string;
  amount: bigint;
  /** The journal entry's kind and reference. */
  kind: string;
  reference: string;
  narration: string | null;
}

/** A rail credit priced by the plan in force: the business's system wallets, and the move_money fields they settle. */
export interface PricedRailCredit {
  system: Record<SystemWalletKind, string>;
  /** From the rail wallet, less the charge, which goes to the fee wallets it touches. */
  move: Required<Pick<MoneyMove<unknown>, 'source' | 'amount' | 'charge' | 'feeWallets'>>;
}

/**
 * Money arriving from outside (a bank transfer, a card, a QR wallet, a POS terminal): one entry
 * from the business's rail wallet to `walletId`, less the fee of the plan in force, which goes
 * to the revenue wallet (and its commission to the settlement wallet) in the same entry.
 */
@Injectable()
export class RailCredits {
  constructor(
    private readonly wallets: WalletsRepository,
    private readonly ledger: LedgerService,
    private readonly pricing: PricingService,
  ) {}

  /** What a credit of `amount` costs the business, and where it comes from, for a credit booked in one move_money call. */
  async priced(em: EntityManager, businessId: string, product: Product, amount: bigint): Promise<PricedRailCredit> {
    const system = await this.wallets.systemWalletIds(em, businessId);
    const charge = await this.pricing.charge(em, businessId, product, amount);
    return { system, move: { source: system.rail, amount, charge, feeWallets: feeWalletsOf(charge, system) } };
  }

  async credit(
    em: EntityManager,
    credit: RailCredit,
  ): Promise<{ entry: JournalEntry; charge: Charge; wallet: Wallet }> {
    const { businessId, walletId, amount } = credit;
    const {
      system,
      move: { charge },
    } = await this.priced(em, businessId, credit.product, amount);
    const locked = await this.wallets.lock(em, businessId, [system.rail, walletId, ...feeWalletIds(charge, system)]);
    const wallet = locked.get(walletId)!;
    const entry = await this.ledger.post(em, {
      businessId,
      kind: credit.kind,
      reference: credit.reference,
      narration: credit.narration,
      postings: creditPostings(locked.get(system.rail)!, wallet, amount, charge, {
        revenue: locked.get(system.revenue)!,
        commission: locked.get(system.settlement)!,
      }),
    });
    return { entry, charge, wallet };
  }
}
