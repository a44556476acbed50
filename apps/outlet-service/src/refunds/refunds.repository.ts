import { Injectable } from '@nestjs/common';
import { ListRefundsFilters, RefundResponse, RefundStatus } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { firstRow, singleRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

import { lockOldestDue } from '../rails/rail-queue.repository';

export interface NewRefund {
  businessId: string;
  transactionReference: string;
  checkoutReference: string | null;
  amount: bigint;
  reason: string;
  /** Where the money waits until it is paid back. */
  walletId: string;
}

/** A refund a partner asked for: its amount is held on `walletId` until the rail settles it. */
export interface RequestedRefund {
  businessId: string;
  transactionReference: string;
  productType: string;
  amount: bigint;
  reason: string | null;
  walletId: string;
  settleAfterSeconds: number;
}

/** A row of outlets.refunds. */
export interface RefundRow {
  id: string;
  business_id: string;
  reference: string;
  transaction_reference: string;
  product_type: string | null;
  amount: string;
  reason: string;
  wallet_id: string;
  status: RefundStatus;
  held: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Money owed back to a payer, from the moment it is known. */
@Injectable()
export class RefundsRepository {
  /** Money a card captured after its checkout ended, kept in the suspense wallet for an operator to pay back. */
  async addPending(em: EntityManager, refund: NewRefund): Promise<{ reference: string; createdAt: Date }> {
    const reference = `RFD-${newUlid()}`;
    const row = await singleRow<{ created_at: Date }>(
      em,
      `INSERT INTO outlets.refunds (id, business_id, reference, transaction_reference, checkout_reference, amount, reason, wallet_id, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING') RETURNING created_at`,
      [
        newUlid(),
        refund.businessId,
        reference,
        refund.transactionReference,
        refund.checkoutReference,
        refund.amount.toString(),
        refund.reason,
        refund.walletId,
      ],
    );
    return { reference, createdAt: row.created_at };
  }

  /** A refund the partner asked for, its amount already held; the rail settles it after the delay. */
  async addRequested(em: EntityManager, refund: RequestedRefund): Promise<RefundRow> {
    return singleRow<RefundRow>(
      em,
      `INSERT INTO outlets.refunds (id, business_id, reference, transaction_reference, product_type, amount, reason,
         wallet_id, status, held, settle_after)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING', true, now() + make_interval(secs => $9)) RETURNING *`,
      [
        newUlid(),
        refund.businessId,
        `RFD-${newUlid()}`,
        refund.transactionReference,
        refund.productType,
        refund.amount.toString(),
        refund.reason ?? '',
        refund.walletId,
        refund.settleAfterSeconds,
      ],
    );
  }

  /** What the transaction's refunds take back, counting those still pending and not those that failed. */
  async refundedAmount(em: EntityManager, businessId: string, transactionReference: string): Promise<bigint> {
    const { total } = await singleRow<{ total: string }>(
      em,
      `SELECT coalesce(sum(amount), 0)::text AS total FROM outlets.refunds
       WHERE business_id = $1 AND transaction_reference = $2 AND status <> 'FAILED'`,
      [businessId, transactionReference],
    );
    return BigInt(total);
  }

  async get(em: EntityManager, businessId: string, reference: string): Promise<RefundRow | undefined> {
    return firstRow<RefundRow>(em, `SELECT * FROM outlets.refunds WHERE business_id = $1 AND reference = $2`, [
      businessId,
      reference,
    ]);
  }

  /** Up to `filters.limit` of the business's refunds, newest first, older than `filters.before` when given. */
  async newestFirst(em: EntityManager, businessId: string, filters: ListRefundsFilters): Promise<RefundRow[]> {
    // Each filter is matched only when given: one statement, one plan, whatever the combination.
    return (await em.query(
      `SELECT * FROM outlets.refunds
       WHERE business_id = $1
         AND ($2::text IS NULL OR status = $2)
         AND ($3::text IS NULL OR transaction_reference = $3)
         AND ($4::timestamptz IS NULL OR created_at >= $4)
         AND ($5::timestamptz IS NULL OR created_at < $5)
         AND ($6::text IS NULL OR id < $6)
       ORDER BY id DESC LIMIT $7`,
      [
        businessId,
        filters.status ?? null,
        filters.transactionReference ?? null,
        filters.from ?? null,
        filters.to ?? null,
        filters.before ?? null,
        filters.limit,
      ],
    )) as RefundRow[];
  }

  /**
   * How the refunded payment was made when a card made it: a POS transaction, or a checkout its
   * card paid. Null for a bank transfer or a QR wallet payment.
   */
  async cardPaymentOf(em: EntityManager, refund: RefundRow): Promise<'checkout' | 'pos' | null> {
    if (refund.product_type === 'pos') return 'pos';
    const paidByCard = await firstRow<{ method: string }>(
      em,
      `SELECT method FROM outlets.checkout_outcomes WHERE business_id = $1 AND checkout_reference = $2 AND method = 'card'`,
      [refund.business_id, refund.transaction_reference],
    );
    return paidByCard ? 'checkout' : null;
  }

  /** Takes a refund off the rail's queue: the card network's answer settles it. */
  async awaitCardNetwork(em: EntityManager, refund: RefundRow): Promise<void> {
    await em.query(
      `UPDATE outlets.refunds SET sent_to_card_network_at = now(), updated_at = now()
       WHERE business_id = $1 AND id = $2`,
      [refund.business_id, refund.id],
    );
  }

  /** A refund waiting for the card network's answer, locked; undefined once it is settled. */
  async lockAwaitingCardNetwork(em: EntityManager, businessId: string, reference: string) {
    return firstRow<RefundRow>(
      em,
      `SELECT * FROM outlets.refunds
       WHERE business_id = $1 AND reference = $2 AND status = 'PENDING' AND sent_to_card_network_at IS NOT NULL
       FOR UPDATE`,
      [businessId, reference],
    );
  }

  /** The oldest refund due to settle, locked; replicas skip each other's rows. */
  lockNextDue(em: EntityManager): Promise<RefundRow | undefined> {
    return lockOldestDue(em, 'refunds');
  }

  async settle(
    em: EntityManager,
    refund: RefundRow,
    status: 'PROCESSED' | 'FAILED',
    journalEntryId: string | null,
  ): Promise<RefundRow> {
    // TypeORM answers a raw UPDATE with [rows, affected].
    const [[row]] = (await em.query(
      `UPDATE outlets.refunds SET status = $3, journal_entry_id = $4, settled_at = now(), updated_at = now()
       WHERE business_id = $1 AND id = $2 RETURNING *`,
      [refund.business_id, refund.id, status, journalEntryId],
    )) as [RefundRow[], number];
    return row;
  }
}

export function toRefundResponse(row: RefundRow): RefundResponse {
  return {
    reference: row.reference,
    transactionReference: row.transaction_reference,
    productType: row.product_type ?? 'checkout',
    amount: row.amount,
    reason: row.reason === '' ? null : row.reason,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
