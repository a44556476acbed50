/** What a business is charged for: the products a price plan prices. */
export const products = ['card', 'transfer', 'qr', 'pos', 'payout'] as const;
export type Product = (typeof products)[number];

/** One product's price: basis points (1.5% is 150) of the amount, clamped, plus a flat fee; all in kobo. */
export interface PricePlan {
  percentBps: number;
  /** The percentage part never exceeds it; null: no cap. */
  capKobo: bigint | null;
  /** The percentage part is never below it. */
  floorKobo: bigint;
  flatKobo: bigint;
  /** The partner's share of the fee, in basis points of the fee. */
  commissionBps: number;
}

/** What a payment of `amount` costs, in whole kobo. */
export interface Charge {
  fee: bigint;
  /** The part of the fee that goes back to the partner; the rest is the platform's revenue. */
  commission: bigint;
}

export const noCharge: Charge = { fee: 0n, commission: 0n };

/** round(numerator / 10000) half-up, for non-negative numbers: never a fraction of a kobo. */
function basisPointsOf(amount: bigint, basisPoints: number): bigint {
  return (amount * BigInt(basisPoints) + 5_000n) / 10_000n;
}

/**
 * The fee of a payment: the percentage part rounded half-up to the kobo, then held between
 * floor and cap, plus the flat fee; never more than the amount itself. The commission is the
 * plan's share of that fee, rounded the same way.
 */
export function chargeFor(plan: PricePlan, amount: bigint): Charge {
  let percentage = basisPointsOf(amount, plan.percentBps);
  if (percentage < plan.floorKobo) percentage = plan.floorKobo;
  if (plan.capKobo !== null && percentage > plan.capKobo) percentage = plan.capKobo;
  let fee = percentage + plan.flatKobo;
  if (fee > amount) fee = amount;
  return { fee, commission: basisPointsOf(fee, plan.commissionBps) };
}
