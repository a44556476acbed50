import { Injectable } from '@nestjs/common';
import { CheckoutOutcome, PaymentMethod } from '@payments/contracts';
import { camelCased, firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

interface OutcomeRow {
  checkout_reference: string;
  business_id: string;
  status: CheckoutOutcome['status'];
  method: PaymentMethod | null;
  payment_id: string | null;
  masked_card: string | null;
  comment: string;
}

const outcomeColumns = 'checkout_reference, business_id, status, method, payment_id, masked_card, comment';

export type NewOutcome = Omit<CheckoutOutcome, 'method' | 'paymentId' | 'maskedCard'> &
  Partial<Pick<CheckoutOutcome, 'method' | 'paymentId' | 'maskedCard'>>;

/**
 * How each checkout ended: one row, written by whichever comes first of a booked payment and
 * a closing (expiry, a declined card). A concurrent second writer waits on the primary key and
 * then reads the winner, so exactly one of them decides.
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
    if (inserted) return { outcome: camelCased(inserted), decided: true };
    const existing = await firstRow<OutcomeRow>(
      em,
      `SELECT ${outcomeColumns} FROM outlets.checkout_outcomes WHERE business_id = $1 AND checkout_reference = $2`,
      [outcome.businessId, outcome.checkoutReference],
    );
    // A reference is a ULID the gateway made for one business; another business cannot hold it.
    if (!existing) throw new Error(`checkout ${outcome.checkoutReference} was decided for another business`);
    return { outcome: camelCased(existing), decided: false };
  }
}
