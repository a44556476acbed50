import { Injectable } from '@nestjs/common';
import { BankTransferRequest } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { singleRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

import { Charge } from '../money/price';
import { lockOldestDue } from '../rails/rail-queue.repository';

/** A row of outlets.payouts. */
export interface PayoutRow {
  id: string;
  business_id: string;
  reference: string;
  wallet_id: string;
  amount: string;
  fee: string;
  commission: string;
  bank_code: string;
  account_number: string;
  account_name: string;
  narration: string | null;
}

/** outlets.payouts: bank transfers out, held until the rail settles them. */
@Injectable()
export class PayoutsRepository {
  /** A payout PROCESSING until `settleAfterSeconds` from now; returns when it was created. */
  async insert(
    em: EntityManager,
    businessId: string,
    payout: { walletId: string; request: BankTransferRequest; charge: Charge; settleAfterSeconds: number },
  ): Promise<Date> {
    const { request } = payout;
    const row = await singleRow<{ created_at: Date }>(
      em,
      `INSERT INTO outlets.payouts (id, business_id, reference, wallet_id, amount, bank_code, account_number, account_name, narration, status, settle_after, fee, commission)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'PROCESSING', now() + make_interval(secs => $10), $11, $12) RETURNING created_at`,
      [
        newUlid(),
        businessId,
        request.reference,
        payout.walletId,
        request.amount,
        request.bankCode,
        request.accountNumber,
        request.accountName,
        request.narration ?? null,
        payout.settleAfterSeconds,
        payout.charge.fee.toString(),
        payout.charge.commission.toString(),
      ],
    );
    return row.created_at;
  }

  /** Every business's oldest payout due to settle, locked; replicas skip each other's rows. */
  lockNextDue(em: EntityManager): Promise<PayoutRow | undefined> {
    return lockOldestDue(em, 'payouts');
  }

  /** Records how the payout ended; returns when. */
  async settle(em: EntityManager, businessId: string, id: string, status: 'SUCCESS' | 'FAILED'): Promise<Date> {
    // TypeORM answers a raw UPDATE with [rows, affected].
    const [[{ settled_at }]] = (await em.query(
      `UPDATE outlets.payouts SET status = $3, settled_at = now() WHERE business_id = $1 AND id = $2 RETURNING settled_at`,
      [businessId, id, status],
    )) as [{ settled_at: Date }[], number];
    return settled_at;
  }
}
