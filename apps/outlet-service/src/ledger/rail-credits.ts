import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Charge, Product } from '../pricing/price';
import { creditPostings, feeWalletIds, PricingService } from '../pricing/pricing.service';
import { Wallet, WalletsRepository } from '../wallets/wallets.repository';
import { JournalEntry, LedgerService } from './ledger.service';

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

  async credit(
    em: EntityManager,
    credit: RailCredit,
  ): Promise<{ entry: JournalEntry; charge: Charge; wallet: Wallet }> {
    const { businessId, walletId, amount } = credit;
    const system = await this.wallets.systemWalletIds(em, businessId);
    const charge = await this.pricing.charge(em, businessId, credit.product, amount);
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
