import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

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
}

export interface AttemptWindows {
  cardSeconds: number;
  addressSeconds: number;
  businessSeconds: number;
}

/** gateway.card_attempts: the sliding windows of the card-testing defence, in SQL. */
@Injectable()
export class CardAttemptsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async counts(attempt: CardAttempt, windows: AttemptWindows): Promise<AttemptCounts> {
    const rows: AttemptCounts[] = await this.dataSource.query(
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
           WHERE business_id = $1 AND declined AND attempted_at > now() - make_interval(secs => $7))::int AS "businessDeclines"`,
      [
        attempt.businessId,
        attempt.checkoutReference,
        attempt.fingerprint,
        attempt.payerAddress ?? null,
        windows.cardSeconds,
        windows.addressSeconds,
        windows.businessSeconds,
      ],
    );
    return rows[0];
  }

  /** Counts the attempt (again, for a retry of a refused one), noting what refused it if anything did. */
  async record(attempt: CardAttempt, refusedBy: string | null): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO gateway.card_attempts (business_id, checkout_reference, fingerprint, payer_address, refused_by)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (business_id, checkout_reference, fingerprint) DO UPDATE
         SET attempted_at = now(), refused_by = EXCLUDED.refused_by, payer_address = EXCLUDED.payer_address`,
      [attempt.businessId, attempt.checkoutReference, attempt.fingerprint, attempt.payerAddress ?? null, refusedBy],
    );
  }

  /** The checkout's card attempt was declined (or failed its verification): one more decline at the business. */
  async declined(businessId: string, checkoutReference: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE gateway.card_attempts SET declined = true
        WHERE business_id = $1 AND checkout_reference = $2 AND refused_by IS NULL AND NOT declined`,
      [businessId, checkoutReference],
    );
  }

  /** Forgets attempts older than every window. */
  async sweep(olderThanSeconds: number): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM gateway.card_attempts WHERE attempted_at < now() - make_interval(secs => $1)`,
      [olderThanSeconds],
    );
  }
}
