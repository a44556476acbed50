import { Injectable } from '@nestjs/common';
import { ChargeFigures, CheckoutOutcome, PaymentMethod } from '@payments/contracts';
import { firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

interface OutcomeRow {
  checkout_reference: string;
  business_id: string;
  status: CheckoutOutcome['status'];
  method: PaymentMethod | null;
  payment_id: string | null;
  masked_card: string | null;
  comment: string;
  fee: string | null;
  commission: string | null;
  net_amount: string | null;
}

const outcomeColumns =
  'checkout_reference, business_id, status, method, payment_id, masked_card, comment, fee, commission, net_amount';

export type NewOutcome = Omit<CheckoutOutcome, 'method' | 'paymentId' | 'maskedCard'> &
  Partial<Pick<CheckoutOutcome, 'method' | 'paymentId' | 'maskedCard'>>;

/**
 * How each checkout ended: one row, written by whichever comes first of a booked payment and
 * a closing (expiry, a declined card). A concurrent second writer waits on the primary key and
 * then reads the winner, so exactly one of them decides. A paid outcome keeps the charge its
 * payment booked, so whoever reads it states the figures the ledger took.
 */
@Injectable()
export class CheckoutOutcomesRepository {
  async decide(em: EntityManager, outcome: NewOutcome): Promise<{ outcome: CheckoutOutcome; decided: boolean }> {
    const inserted = await firstRow<OutcomeRow>(
      em,
      `INSERT INTO outlets.checkout_outcomes (checkout_reference, business_id, status, method, payment_id, masked_card, comment)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (checkout_reference) DO NOTHING RETURNING ${outcomeColumns}`,
      [
        outcome.checkoutReference,
        outcome.businessId,
        outcome.status,
        outcome.method ?? null,
        outcome.paymentId ?? null,
        outcome.maskedCard ?? null,
        outcome.comment,
      ],
    );
    if (inserted) return { outcome: toOutcome(inserted), decided: true };
    const existing = await firstRow<OutcomeRow>(
      em,
      `SELECT ${outcomeColumns} FROM outlets.checkout_outcomes WHERE business_id = $1 AND checkout_reference = $2`,
      [outcome.businessId, outcome.checkoutReference],
    );
    // A reference is a ULID the gateway made for one business; another business cannot hold it.
    if (!existing) throw new Error(`checkout ${outcome.checkoutReference} was decided for another business`);
    return { outcome: toOutcome(existing), decided: false };
  }

  /** The charge the payment that decided the checkout booked, in the same transaction as its entry. */
  async recordCharge(em: EntityManager, outcome: CheckoutOutcome & { charge: ChargeFigures }): Promise<void> {
    await em.query(
      `UPDATE outlets.checkout_outcomes SET fee = $3, commission = $4, net_amount = $5
       WHERE business_id = $1 AND checkout_reference = $2`,
      [
        outcome.businessId,
        outcome.checkoutReference,
        outcome.charge.fee,
        outcome.charge.commission,
        outcome.charge.netAmount,
      ],
    );
  }
}

function toOutcome(row: OutcomeRow): CheckoutOutcome {
  const outcome: CheckoutOutcome = {
    businessId: row.business_id,
    checkoutReference: row.checkout_reference,
    status: row.status,
    method: row.method,
    paymentId: row.payment_id,
    maskedCard: row.masked_card,
    comment: row.comment,
  };
  if (row.fee === null || row.commission === null || row.net_amount === null) return outcome;
  return { ...outcome, charge: { fee: row.fee, commission: row.commission, netAmount: row.net_amount } };
}
