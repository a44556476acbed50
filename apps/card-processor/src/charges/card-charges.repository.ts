import { Injectable } from '@nestjs/common';
import { VerificationStep } from '@payments/contracts';
import { firstRow, preparedQuery } from '@payments/platform-database';
import { OutboxRow } from '@payments/platform-outbox';
import { DataSource, EntityManager } from 'typeorm';

/** A row of card_processor.card_charges: one charge per checkout and where its verification stands. */
export interface ChargeRow {
  id: string;
  checkout_reference: string;
  business_id: string;
  amount: string;
  masked_pan: string;
  card_fingerprint: string;
  steps: VerificationStep[];
  attempts_left: number;
  issuer_decline: string | null;
  expires_at: Date | null;
  status: 'PROCESSING' | 'SUCCESS' | 'FAILED';
  decline_reason: string | null;
}

/** card_processor.card_charges. Changes happen under the row lock its `lock…` methods take. */
@Injectable()
export class CardChargesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The checkout's first charge and, when given, its event, in one statement prepared once per
   * connection. Null when the checkout has a charge already; then no event is queued.
   */
  async insertFirst(charge: ChargeRow, event: OutboxRow | null): Promise<ChargeRow | null> {
    const [row] = await preparedQuery<ChargeRow>(
      this.dataSource,
      'card_processor.start_charge',
      `WITH charge AS (
         INSERT INTO card_processor.card_charges (id, checkout_reference, business_id, amount, masked_pan, card_fingerprint, steps, attempts_left, issuer_decline, expires_at, status, decline_reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING RETURNING *
       ), event AS (
         INSERT INTO card_processor.outbox (id, topic, message_key, payload, headers) SELECT $13, $14, $15, $16, $17 FROM charge WHERE $13::uuid IS NOT NULL
       )
       SELECT * FROM charge`,
      [
        charge.id,
        charge.checkout_reference,
        charge.business_id,
        charge.amount,
        charge.masked_pan,
        charge.card_fingerprint,
        charge.steps,
        charge.attempts_left,
        charge.issuer_decline,
        charge.expires_at,
        charge.status,
        charge.decline_reason,
        event?.id ?? null,
        event?.topic ?? null,
        event?.key ?? null,
        event?.payload ?? null,
        event?.headers ?? null,
      ],
    );
    return row ?? null;
  }

  async lockForCheckout(
    em: EntityManager,
    businessId: string,
    checkoutReference: string,
  ): Promise<ChargeRow | undefined> {
    return firstRow<ChargeRow>(
      em,
      `SELECT * FROM card_processor.card_charges WHERE business_id = $1 AND checkout_reference = $2 FOR UPDATE`,
      [businessId, checkoutReference],
    );
  }

  async findForCheckout(businessId: string, checkoutReference: string): Promise<ChargeRow | undefined> {
    return firstRow<ChargeRow>(
      this.dataSource,
      `SELECT * FROM card_processor.card_charges WHERE business_id = $1 AND checkout_reference = $2`,
      [businessId, checkoutReference],
    );
  }

  /** By the ids the bank's 3-D Secure page carries, which are its only credential. */
  async lockForAcs(em: EntityManager, chargeId: string, checkoutReference: string): Promise<ChargeRow | undefined> {
    return firstRow<ChargeRow>(
      em,
      `SELECT * FROM card_processor.card_charges WHERE id = $1 AND checkout_reference = $2 FOR UPDATE`,
      [chargeId, checkoutReference],
    );
  }

  /** Saves where a locked charge stands: its remaining steps, tries and status. */
  async save(em: EntityManager, charge: ChargeRow): Promise<ChargeRow> {
    // TypeORM answers a raw UPDATE with [rows, affected].
    const [[row]] = (await em.query(
      `UPDATE card_processor.card_charges SET steps = $3, attempts_left = $4, status = $5, decline_reason = $6, updated_at = now()
       WHERE business_id = $1 AND id = $2 RETURNING *`,
      [charge.business_id, charge.id, charge.steps, charge.attempts_left, charge.status, charge.decline_reason],
    )) as [ChargeRow[], number];
    return row;
  }
}
