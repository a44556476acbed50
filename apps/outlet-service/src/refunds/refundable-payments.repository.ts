import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { WalletKind } from '../wallets/wallets.repository';

/** A payment a refund can take back: what the payer paid, and the wallet that received it. */
export interface RefundablePayment {
  productType: 'checkout' | 'pos';
  amount: bigint;
  walletId: string;
  outletId: string | null;
}

/** Payments found by their reference in the journal: a paid checkout, or a credited POS transaction. */
@Injectable()
export class RefundablePaymentsRepository {
  async find(em: EntityManager, businessId: string, reference: string): Promise<RefundablePayment | null> {
    const rows = (await em.query(
      `SELECT e.kind, p.amount, w.id AS wallet_id, w.type, w.outlet_id
       FROM outlets.journal_entries e
       JOIN outlets.postings p ON p.entry_id = e.id
       JOIN outlets.wallets w ON w.id = p.wallet_id
       WHERE e.business_id = $1 AND e.kind IN ('checkout', 'pos') AND e.reference = $2`,
      [businessId, reference],
    )) as { kind: 'checkout' | 'pos'; amount: string; wallet_id: string; type: WalletKind; outlet_id: string | null }[];
    const paid = rows.find((row) => row.type === 'rail');
    // The payment's own wallet: an outlet's collection wallet, else the settlement wallet (which
    // may also hold the commission posting: the same wallet either way).
    const received = rows.find((row) => row.type === 'collection') ?? rows.find((row) => row.type === 'settlement');
    if (!paid || !received) return null;
    return {
      productType: paid.kind,
      amount: -BigInt(paid.amount),
      walletId: received.wallet_id,
      outletId: received.outlet_id,
    };
  }
}
