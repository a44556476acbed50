import { Injectable } from '@nestjs/common';
import { ChargeFigures } from '@payments/contracts';
import { EntityManager } from 'typeorm';

import { Posting } from './ledger.service';
import { Charge, chargeFor, Product } from './price';
import { PricePlansRepository } from './price-plans.repository';
import { Wallet } from './wallets.repository';

/** Where a charge goes: the fee less commission to revenue, the commission to the partner's wallet. */
export interface FeeWallets {
  revenue: Wallet;
  commission: Wallet;
}

/** Prices payments by the business's plan in force when they are booked. */
@Injectable()
export class PricingService {
  constructor(private readonly plans: PricePlansRepository) {}

  /** A payment's charge, taken from its amount: what reaches the wallet (or the beneficiary) is the rest. */
  async charge(em: EntityManager, businessId: string, product: Product, amount: bigint): Promise<Charge> {
    return chargeFor(await this.plans.current(em, businessId, product), amount);
  }
}

/**
 * The fee wallets a charge's postings touch, null where it puts nothing: a free payment touches
 * neither, so it never queues on the revenue or settlement wallet.
 */
export function feeWalletsOf(
  charge: Charge,
  system: { revenue: string; settlement: string },
): { revenue: string | null; commission: string | null } {
  return {
    revenue: charge.fee > charge.commission ? system.revenue : null,
    commission: charge.commission > 0n ? system.settlement : null,
  };
}

/** The fee wallets a charge's postings touch, to lock with the others. */
export function feeWalletIds(charge: Charge, system: { revenue: string; settlement: string }): string[] {
  return Object.values(feeWalletsOf(charge, system)).filter((id): id is string => id !== null);
}

/**
 * A credit's postings in one balanced entry: `amount` leaves `from`, `to` receives amount − fee,
 * revenue the fee less commission and the partner's wallet the commission. Zero postings are
 * left out, so a free payment needs no fee wallets.
 */
export function creditPostings(
  from: Wallet,
  to: Wallet,
  amount: bigint,
  charge: Charge,
  fees: Partial<FeeWallets>,
): Posting[] {
  const wanted: [Wallet | undefined, bigint][] = [
    [from, -amount],
    [to, amount - charge.fee],
    [fees.revenue, charge.fee - charge.commission],
    [fees.commission, charge.commission],
  ];
  return wanted
    .filter(([, share]) => share !== 0n)
    .map(([wallet, share]) => {
      if (!wallet) throw new Error('a fee posting has no wallet: lock the fee wallets first');
      return { wallet, amount: share };
    });
}

/** A credit's figures for events and answers: the fee, the commission and what the wallet received. */
export function creditFigures(amount: bigint, charge: Charge): ChargeFigures {
  return {
    fee: charge.fee.toString(),
    commission: charge.commission.toString(),
    netAmount: (amount - charge.fee).toString(),
  };
}
