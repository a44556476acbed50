import { Injectable } from '@nestjs/common';
import { newUlid } from '@payments/platform-crypto';
import { EntityManager } from 'typeorm';

export interface NewRefund {
  businessId: string;
  transactionReference: string;
  checkoutReference: string | null;
  amount: bigint;
  reason: string;
  /** Where the money waits until it is paid back. */
  walletId: string;
}

/** Money owed back to a payer, from the moment it is known. */
@Injectable()
export class RefundsRepository {
  async addPending(em: EntityManager, refund: NewRefund): Promise<{ reference: string; createdAt: Date }> {
    const reference = `RFD-${newUlid()}`;
    const [row] = (await em.query(
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
    )) as { created_at: Date }[];
    return { reference, createdAt: row.created_at };
  }
}
