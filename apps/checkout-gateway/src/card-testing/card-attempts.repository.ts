import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** One card payment attempt, as the windows count it. */
export interface CardAttempt {
  businessId: string;
  checkoutReference: string;
  fingerprint: string;
  /** The payer's address, when the payer's browser sent the attempt (the hosted page). */
  payerAddress?: string;
}

/** What the windows hold before an attempt, each over its own window. */
export interface AttemptCounts {
  /** This very attempt was counted before and let through: a retry. */
  alreadyAdmitted: boolean;
  /** Attempts with this card, at any business. */
  cardAttempts: number;
  /** Other cards tried from this payer address. */
  otherCardsFromAddress: number;
  /** Declined attempts at this business. */
  businessDeclines: number;
  /** Attempts at this business let through and not yet answered by card-processor: each may yet be a decline. */
  businessInFlight: number;
}

export interface AttemptWindows {
  cardSeconds: number;
  addressSeconds: number;
  businessSeconds: number;
  /** How long an unanswered attempt can still be answered: past it, it no longer counts as in flight. */
  inFlightSeconds: number;
}

/** gateway.card_attempts: the sliding windows of the card-testing defence, in SQL. */
@Injectable()
export class CardAttemptsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Counts the attempt and records it with what `refuse` makes of the counts (the signal that
   * refused it, or null), in one transaction holding a lock on the attempt's card, payer address
   * and business: attempts that share any of them, on any gateway instance, are decided one
   * after another, each on counts that include the ones before it.
   */
  admit<Refusal extends string>(
    attempt: CardAttempt,
    windows: AttemptWindows,
    refuse: (counts: AttemptCounts) => Refusal | null,
  ): Promise<Refusal | null> {
    return this.dataSource.transaction(async (em) => {
      await this.lock(em, attempt);
      const refusedBy = refuse(await this.counts(em, attempt, windows));
      await this.record(em, attempt, refusedBy);
      return refusedBy;
    });
  }

  /**
   * card-processor answered the checkout's attempt: it is no longer in flight, and counts as one
   * more decline at the business if it was declined (or failed its verification).
   */
  async answered(businessId: string, checkoutReference: string, declined: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE gateway.card_attempts SET in_flight = false, declined = declined OR $3
        WHERE business_id = $1 AND checkout_reference = $2 AND refused_by IS NULL AND (in_flight OR ($3 AND NOT declined))`,
      [businessId, checkoutReference, declined],
    );
  }

  /** Forgets attempts older than every window. */
  async sweep(olderThanSeconds: number): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM gateway.card_attempts WHERE attempted_at < now() - make_interval(secs => $1)`,
      [olderThanSeconds],
    );
  }

  /** Held until the transaction ends. Taken in one order by every caller, so two attempts queue instead of deadlocking. */
  private async lock(em: EntityManager, attempt: CardAttempt): Promise<void> {
    const keys = [`card:${attempt.fingerprint}`, `business:${attempt.businessId}`];
    if (attempt.payerAddress) keys.push(`address:${attempt.payerAddress}`);
    await em.query(
      `SELECT pg_advisory_xact_lock(key)
         FROM (SELECT DISTINCT hashtextextended('card-testing:' || name, 0) AS key FROM unnest($1::text[]) AS name
                ORDER BY key) AS keys`,
      [keys],
    );
  }

  private async counts(em: EntityManager, attempt: CardAttempt, windows: AttemptWindows): Promise<AttemptCounts> {
    const rows: AttemptCounts[] = await em.query(
      `SELECT
         EXISTS (SELECT 1 FROM gateway.card_attempts
                  WHERE business_id = $1 AND checkout_reference = $2 AND fingerprint = $3 AND refused_by IS NULL
                ) AS "alreadyAdmitted",
         (SELECT count(*) FROM gateway.card_attempts
           WHERE fingerprint = $3 AND attempted_at > now() - make_interval(secs => $5))::int AS "cardAttempts",
         (SELECT count(DISTINCT fingerprint) FROM gateway.card_attempts
           WHERE payer_address = $4 AND fingerprint <> $3 AND attempted_at > now() - make_interval(secs => $6)
         )::int AS "otherCardsFromAddress",
         (SELECT count(*) FROM gateway.card_attempts
           WHERE business_id = $1 AND declined AND attempted_at > now() - make_interval(secs => $7))::int AS "businessDeclines",
         (SELECT count(*) FROM gateway.card_attempts
           WHERE business_id = $1 AND in_flight
             AND attempted_at > now() - make_interval(secs => LEAST($7, $8)))::int AS "businessInFlight"`,
      [
        attempt.businessId,
        attempt.checkoutReference,
        attempt.fingerprint,
        attempt.payerAddress ?? null,
        windows.cardSeconds,
        windows.addressSeconds,
        windows.businessSeconds,
        windows.inFlightSeconds,
      ],
    );
    return rows[0];
  }

  /**
   * Counts the attempt (again, for a retry), noting what refused it if anything did; one let
   * through is in flight until card-processor answers it.
   */
  private async record(em: EntityManager, attempt: CardAttempt, refusedBy: string | null): Promise<void> {
    await em.query(
      `INSERT INTO gateway.card_attempts (business_id, checkout_reference, fingerprint, payer_address, refused_by, in_flight)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (business_id, checkout_reference, fingerprint) DO UPDATE
         SET attempted_at = now(), refused_by = EXCLUDED.refused_by, payer_address = EXCLUDED.payer_address,
             in_flight = EXCLUDED.in_flight`,
      [
        attempt.businessId,
        attempt.checkoutReference,
        attempt.fingerprint,
        attempt.payerAddress ?? null,
        refusedBy,
        refusedBy === null,
      ],
    );
  }
}
