import { Injectable } from '@nestjs/common';
import { firstRow, singleRow } from '@payments/platform-database';
import { DataSource, EntityManager } from 'typeorm';

import { NetworkName } from './card-network';

export type RequestPurpose = 'checkout' | 'pos' | 'refund';
export type RequestState = 'sent' | 'approved' | 'declined' | 'unknown' | 'reversed';

/** A row of card_processor.network_requests: one 0200 and how it ended. */
export interface NetworkRequestRow {
  id: string;
  network: NetworkName;
  acquirer_id: string;
  stan: string;
  rrn: string;
  purpose: RequestPurpose;
  payment_reference: string;
  business_id: string;
  processing_code: string;
  amount: string;
  transmitted_at: Date;
  merchant_id: string;
  terminal_id: string;
  sealed_pan: string | null;
  state: RequestState;
  response_code: string | null;
  authorisation_code: string | null;
  settlement_date: string | null;
  reversal_attempts: number;
  reversal_due_at: Date | null;
  reversal_code: string | null;
  /** When an approval came after the request was given up. */
  approved_late_at: Date | null;
}

/** How a sent request ended, as recorded. */
export interface RequestOutcome {
  state: 'approved' | 'declined' | 'unknown';
  /** DE39; null when no answer came, or the request never left. */
  responseCode: string | null;
  authorisationCode: string | null;
  /** DE15, MMDD. */
  settlementDate: string | null;
}

export type NewNetworkRequest = Pick<
  NetworkRequestRow,
  | 'id'
  | 'network'
  | 'acquirer_id'
  | 'purpose'
  | 'payment_reference'
  | 'business_id'
  | 'processing_code'
  | 'amount'
  | 'merchant_id'
  | 'terminal_id'
> & { sealPan: (id: string) => string };

/**
 * The statement that writes a request as sent, drawing its STAN and RRN: on its own, or as part
 * of a flow's statement that writes the payment too, one request for each row of `source` (a
 * name the statement's WITH gives). Its parameters are numbered from `first`.
 */
export function insertSentStatement(
  request: NewNetworkRequest,
  first = 1,
  source?: string,
): { sql: string; params: unknown[] } {
  const p = (n: number) => `$${first + n - 1}`;
  return {
    sql: `INSERT INTO card_processor.network_requests (id, network, acquirer_id, stan, rrn, purpose, payment_reference, business_id, processing_code, amount, transmitted_at, merchant_id, terminal_id, sealed_pan, state)
       SELECT ${p(1)}, ${p(2)}, ${p(3)}, lpad(nextval('card_processor.network_stan')::text, 6, '0'), lpad(nextval('card_processor.network_rrn')::text, 12, '0'),
              ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, date_trunc('second', clock_timestamp()), ${p(9)}, ${p(10)}, ${p(11)}, 'sent'${source ? `\n       FROM ${source}` : ''}
       RETURNING *`,
    params: [
      request.id,
      request.network,
      request.acquirer_id,
      request.purpose,
      request.payment_reference,
      request.business_id,
      request.processing_code,
      request.amount,
      request.merchant_id,
      request.terminal_id,
      request.sealPan(request.id),
    ],
  };
}

/**
 * card_processor.network_requests. A request is written as sent before it leaves, so that a
 * crash while it is in flight leaves a row to reverse; each later change moves it from one
 * state to the next with a guard on the state it expects, so two instances (the one waiting
 * for the answer, and the sweep that gave up on it) never both decide it.
 */
@Injectable()
export class NetworkRequestsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Draws its STAN and RRN, and records it as sent at this moment. */
  async insertSent(em: EntityManager, request: NewNetworkRequest): Promise<NetworkRequestRow> {
    const { sql, params } = insertSentStatement(request);
    return singleRow<NetworkRequestRow>(em, sql, params);
  }

  /** A new STAN, for a message that is not a payment (a reversal, an echo, a sign-on). */
  async nextStan(): Promise<string> {
    const row = await singleRow<{ stan: string }>(
      this.dataSource,
      `SELECT lpad(nextval('card_processor.network_stan')::text, 6, '0') AS stan`,
    );
    return row.stan;
  }

  /** The request an answer names: by DE37 and DE11 together, as the contract matches them. */
  async find(
    network: NetworkName,
    acquirerId: string,
    rrn: string,
    stan: string,
  ): Promise<NetworkRequestRow | undefined> {
    return firstRow<NetworkRequestRow>(
      this.dataSource,
      `SELECT * FROM card_processor.network_requests WHERE acquirer_id = $1 AND rrn = $2 AND network = $3 AND stan = $4`,
      [acquirerId, rrn, network, stan.padStart(6, '0')],
    );
  }

  /**
   * An approval came for a request already given up, so the host has an approval to reverse.
   * One still being reversed is marked, so that a "nothing to reverse" answer (the host may have
   * taken the 0420 before the 0200) does not close it; one already acknowledged that way is
   * due again. The state it was in, or undefined when there was nothing to reverse (it was
   * reversed with `00`, decided otherwise, or its card was let go).
   */
  async approvedLate(id: string): Promise<'unknown' | 'reversed' | undefined> {
    const [rows] = (await this.dataSource.query(
      `WITH found AS (SELECT id, state FROM card_processor.network_requests WHERE id = $1 FOR UPDATE)
       UPDATE card_processor.network_requests r
       SET approved_late_at = now(), state = 'unknown',
           reversal_due_at = CASE WHEN found.state = 'reversed' THEN now() ELSE r.reversal_due_at END,
           reversal_code = NULL, reversed_at = NULL, updated_at = now()
       FROM found
       WHERE r.id = found.id AND r.sealed_pan IS NOT NULL
         AND (r.state = 'unknown' OR (r.state = 'reversed' AND r.reversal_code <> '00'))
       RETURNING found.state`,
      [id],
    )) as [{ state: 'unknown' | 'reversed' }[], number];
    return rows[0]?.state;
  }

  async findForPayment(purpose: RequestPurpose, reference: string): Promise<NetworkRequestRow | undefined> {
    return firstRow<NetworkRequestRow>(
      this.dataSource,
      `SELECT * FROM card_processor.network_requests WHERE purpose = $1 AND payment_reference = $2`,
      [purpose, reference],
    );
  }

  /**
   * Records how a sent request ended, and locks it for the rest of its decision: the guarded
   * update is what makes one decider win. An unknown outcome is due for reversal at once. The
   * PAN stays for anything that may still be reversed or refunded; a decline lets it go.
   * `strandedForMs`: only if it was written that long ago (the sweep of stranded requests).
   * Undefined when the request was decided already (by the sweep, or by an answer on another
   * connection).
   */
  async decide(
    em: EntityManager,
    id: string,
    outcome: RequestOutcome,
    strandedForMs?: number,
  ): Promise<NetworkRequestRow | undefined> {
    const [rows] = (await em.query(
      `UPDATE card_processor.network_requests
       SET state = $2, response_code = $3, authorisation_code = $4, settlement_date = $5::date,
           sealed_pan = CASE WHEN $2 <> 'declined' THEN sealed_pan END,
           reversal_due_at = CASE WHEN $2 = 'unknown' THEN now() END, updated_at = now()
       WHERE id = $1 AND state = 'sent'
         AND ($6::bigint IS NULL OR transmitted_at < now() - $6 * interval '1 millisecond')
       RETURNING *`,
      [
        id,
        outcome.state,
        outcome.responseCode,
        outcome.authorisationCode,
        settlementDay(outcome.settlementDate),
        strandedForMs ?? null,
      ],
    )) as [NetworkRequestRow[], number];
    return rows[0];
  }

  /** An approval its payment could not take (it had ended): reversed, as an unknown outcome is. */
  async reverseInstead(em: EntityManager, id: string): Promise<void> {
    await em.query(
      `UPDATE card_processor.network_requests SET state = 'unknown', reversal_due_at = now(), updated_at = now()
       WHERE id = $1 AND state = 'approved'`,
      [id],
    );
  }

  /** An approved refund's PAN, once its refund took the approval: only a purchase's is kept, for its refunds. */
  async letGoOfPan(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE card_processor.network_requests SET sealed_pan = NULL, updated_at = now() WHERE id = $1`, [
      id,
    ]);
  }

  /**
   * Takes up to `limit` reversals due on these networks, soonest first, and puts each one's next
   * try a repeat interval away before it is sent: an instance that dies mid-send leaves it due
   * again, never lost. Networks with no connection signed on are left alone: nothing could go.
   */
  async claimDueReversals(
    networks: NetworkName[],
    repeatIntervalMs: number,
    limit: number,
  ): Promise<NetworkRequestRow[]> {
    const [rows] = (await this.dataSource.query(
      `UPDATE card_processor.network_requests
       SET reversal_attempts = reversal_attempts + 1, reversal_due_at = now() + $1 * interval '1 millisecond', updated_at = now()
       WHERE id IN (SELECT id FROM card_processor.network_requests
                    WHERE state = 'unknown' AND reversal_due_at <= now() AND network = ANY($2)
                    ORDER BY reversal_due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [repeatIntervalMs, networks, limit],
    )) as [NetworkRequestRow[], number];
    return rows;
  }

  /**
   * The host acknowledged the reversal. One that reversed an approval (`00`) is done with, and
   * its PAN let go; one the host had nothing to reverse for keeps it a while, in case the
   * approval comes after (approvedLate), until the retention sweep lets it go. Nothing to
   * reverse for a request whose approval came meanwhile closes nothing: it is sent again.
   * False when the request is still to be reversed (or was closed already).
   */
  async reversed(id: string, responseCode: string): Promise<boolean> {
    const [, closed] = (await this.dataSource.query(
      `UPDATE card_processor.network_requests
       SET state = 'reversed', reversal_code = $2, reversed_at = now(), reversal_due_at = NULL,
           sealed_pan = CASE WHEN $2 = '00' THEN NULL ELSE sealed_pan END, updated_at = now()
       WHERE id = $1 AND state = 'unknown' AND ($2 = '00' OR approved_late_at IS NULL)`,
      [id, responseCode],
    )) as [unknown, number];
    return closed === 1;
  }

  /**
   * Card data kept no longer than its use: the PAN of a request reversed with nothing to
   * reverse after a day, an approved purchase's after its refund window, and a checkout's card
   * held for steps never answered an hour after the checkout expired. Rows changed.
   */
  async letGoOfCardData(refundWindowDays: number): Promise<number> {
    const [, requests] = (await this.dataSource.query(
      `UPDATE card_processor.network_requests SET sealed_pan = NULL, updated_at = now()
       WHERE sealed_pan IS NOT NULL AND (
         (state = 'reversed' AND reversed_at < now() - interval '1 day')
         OR (state = 'approved' AND transmitted_at < now() - $1 * interval '1 day'))`,
      [refundWindowDays],
    )) as [unknown, number];
    const [, charges] = (await this.dataSource.query(
      `UPDATE card_processor.card_charges SET sealed_card = NULL, updated_at = now()
       WHERE sealed_card IS NOT NULL AND expires_at < now() - interval '1 hour'`,
    )) as [unknown, number];
    return requests + charges;
  }

  /** Requests still marked sent long after any answer could have come: their sender is gone. */
  async stranded(olderThanMs: number, limit: number): Promise<NetworkRequestRow[]> {
    return (await this.dataSource.query(
      `SELECT * FROM card_processor.network_requests
       WHERE state = 'sent' AND transmitted_at < now() - $1 * interval '1 millisecond'
       ORDER BY transmitted_at LIMIT $2`,
      [olderThanMs, limit],
    )) as NetworkRequestRow[];
  }

  /** Reversals not acknowledged yet, and the oldest of them: what the alert on reversals watches. */
  async pendingReversals(): Promise<{ count: number; oldestSeconds: number }> {
    const row = await singleRow<{ count: string; oldest: string | null }>(
      this.dataSource,
      `SELECT count(*) AS count, extract(epoch FROM now() - min(transmitted_at)) AS oldest
       FROM card_processor.network_requests WHERE state = 'unknown'`,
    );
    return { count: Number(row.count), oldestSeconds: Number(row.oldest ?? 0) };
  }
}

/**
 * DE15 (MMDD) as a date: the year is the one that puts it nearest today, so a settlement
 * date of 31 December read on 1 January is last year's.
 */
export function settlementDay(mmdd: string | null, today = new Date()): string | null {
  if (!mmdd || !/^(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(mmdd)) return null;
  const year = today.getUTCFullYear();
  const candidates = [year - 1, year, year + 1].map((y) => `${y}-${mmdd.slice(0, 2)}-${mmdd.slice(2)}`);
  const distance = (day: string) => Math.abs(Date.parse(day) - today.getTime());
  return candidates.reduce((best, day) => (distance(day) < distance(best) ? day : best));
}
