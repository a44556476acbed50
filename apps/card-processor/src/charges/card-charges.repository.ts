import { Injectable } from '@nestjs/common';
import { BusinessMode, VerificationStep } from '@payments/contracts';
import { firstRow } from '@payments/platform-database';
import { DataSource, EntityManager } from 'typeorm';

import { insertSentStatement, NetworkRequestRow, NewNetworkRequest } from '../card-network/network-requests.repository';

/** A row of card_processor.card_charges: one charge per checkout and where its verification stands. */
export interface ChargeRow {
  id: string;
  checkout_reference: string;
  business_id: string;
  /** Null on charges begun before it was kept: they are sandbox ones. */
  business_mode: BusinessMode | null;
  amount: string;
  masked_pan: string;
  card_fingerprint: string;
  steps: VerificationStep[];
  attempts_left: number;
  expires_at: Date | null;
  status: 'PROCESSING' | 'SUCCESS' | 'FAILED';
  decline_reason: string | null;
  /** The card (PAN and expiry), sealed to this charge, while steps remain before the network step. */
  sealed_card: string | null;
}

/** card_processor.card_charges. Changes happen under the row lock its `lock…` methods take. */
@Injectable()
export class CardChargesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The checkout's first charge; undefined when the checkout has one already. */
  async insertFirst(em: EntityManager, charge: ChargeRow): Promise<ChargeRow | undefined> {
    return firstRow<ChargeRow>(em, `${insertFirstSql} RETURNING *`, chargeValues(charge));
  }

  /**
   * The checkout's first charge and, in the same statement, the network request it goes out
   * as: what the database drew for the request beside the charge. Undefined when the checkout
   * has a charge already; then no request is written.
   */
  async insertFirstSending(
    charge: ChargeRow,
    request: NewNetworkRequest,
  ): Promise<{ charge: ChargeRow; drawn: Pick<NetworkRequestRow, 'stan' | 'rrn' | 'transmitted_at'> } | undefined> {
    const values = chargeValues(charge);
    const sending = insertSentStatement(request, values.length + 1, 'charge');
    const row = await firstRow<ChargeRow & { sent_stan: string; sent_rrn: string; sent_transmitted_at: Date }>(
      this.dataSource,
      `WITH charge AS (${insertFirstSql} RETURNING *), request AS (${sending.sql})
       SELECT charge.*, request.stan AS sent_stan, request.rrn AS sent_rrn, request.transmitted_at AS sent_transmitted_at
       FROM charge CROSS JOIN request`,
      [...values, ...sending.params],
    );
    if (!row) return undefined;
    const { sent_stan: stan, sent_rrn: rrn, sent_transmitted_at: transmitted_at, ...inserted } = row;
    return { charge: inserted, drawn: { stan, rrn, transmitted_at } };
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

  /** Ends the checkout's charge if it is still in progress: the guard is its lock. */
  async endIfProcessing(
    em: EntityManager,
    businessId: string,
    checkoutReference: string,
    status: 'SUCCESS' | 'FAILED',
    declineReason: string | null,
  ): Promise<ChargeRow | undefined> {
    const [rows] = (await em.query(
      `UPDATE card_processor.card_charges SET steps = '{}', status = $3, decline_reason = $4, sealed_card = NULL, updated_at = now()
       WHERE business_id = $1 AND checkout_reference = $2 AND status = 'PROCESSING' RETURNING *`,
      [businessId, checkoutReference, status, declineReason],
    )) as [ChargeRow[], number];
    return rows[0];
  }

  /**
   * Saves where a locked charge stands: its remaining steps, tries and status. The card it held
   * is let go once no step is left: the network request has it, or the charge has ended.
   */
  async save(em: EntityManager, charge: ChargeRow): Promise<ChargeRow> {
    // TypeORM answers a raw UPDATE with [rows, affected].
    const [[row]] = (await em.query(
      `UPDATE card_processor.card_charges SET steps = $3, attempts_left = $4, status = $5, decline_reason = $6,
         sealed_card = CASE WHEN $5 = 'PROCESSING' AND cardinality($3::text[]) > 0 THEN sealed_card END, updated_at = now()
       WHERE business_id = $1 AND id = $2 RETURNING *`,
      [charge.business_id, charge.id, charge.steps, charge.attempts_left, charge.status, charge.decline_reason],
    )) as [ChargeRow[], number];
    return row;
  }
}

const insertFirstSql = `INSERT INTO card_processor.card_charges (id, checkout_reference, business_id, business_mode, amount, masked_pan, card_fingerprint, steps, attempts_left, expires_at, status, decline_reason, sealed_card)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING`;

function chargeValues(charge: ChargeRow): unknown[] {
  return [
    charge.id,
    charge.checkout_reference,
    charge.business_id,
    charge.business_mode,
    charge.amount,
    charge.masked_pan,
    charge.card_fingerprint,
    charge.steps,
    charge.attempts_left,
    charge.expires_at,
    charge.status,
    charge.decline_reason,
    charge.sealed_card,
  ];
}
