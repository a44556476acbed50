import { Injectable } from '@nestjs/common';
import { firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

/** A payment a refund can take back: what the payer paid, and the wallet that received it. */
export interface RefundablePayment {
  productType: 'checkout' | 'pos';
  amount: bigint;
  walletId: string;
  outletId: string | null;
}

interface PaymentRow {
  kind: 'checkout' | 'pos';
  amount: string;
  wallet_id: string;
  outlet_id: string | null;
}

/**
 * Payments found by their own records, whatever their postings: a paid checkout by its entry
 * (its money reached the settlement wallet), a credited POS transaction by its entry and the
 * wallet its command credited. The amount is what left the rail wallet, which every payment
 * posts; what reached the wallet may be nothing when the fee took it all.
 */
@Injectable()
export class RefundablePaymentsRepository {
  async find(em: EntityManager, businessId: string, reference: string): Promise<RefundablePayment | null> {
    const row = await firstRow<PaymentRow>(
      em,
      `SELECT e.kind, -p.amount AS amount, w.id AS wallet_id, w.outlet_id
       FROM outlets.journal_entries e
       JOIN outlets.postings p ON p.entry_id = e.id
       JOIN outlets.wallets rail ON rail.id = p.wallet_id AND rail.type = 'rail'
       LEFT JOIN outlets.money_commands c
         ON e.kind = 'pos' AND c.business_id = e.business_id AND c.namespace = 'pos' AND c.reference = e.reference
       JOIN outlets.wallets w ON w.business_id = e.business_id AND w.id = coalesce(
         c.result->>'walletId',
         -- POS credits booked before their command kept the wallet: the outlet's wallet they posted to.
         (SELECT cw.id FROM outlets.postings cp JOIN outlets.wallets cw ON cw.id = cp.wallet_id
          WHERE cp.entry_id = e.id AND cw.type = 'collection'),
         (SELECT sw.id FROM outlets.wallets sw WHERE sw.business_id = e.business_id AND sw.type = 'settlement'))
       WHERE e.business_id = $1 AND e.kind IN ('checkout', 'pos') AND e.reference = $2`,
      [businessId, reference],
    );
    if (!row) return null;
    return { productType: row.kind, amount: BigInt(row.amount), walletId: row.wallet_id, outletId: row.outlet_id };
  }
}
