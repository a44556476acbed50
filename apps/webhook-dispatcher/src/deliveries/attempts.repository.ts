import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { DeliveryRow } from './deliveries.repository';

export interface RecordedAttempt {
  delivery: DeliveryRow;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  next: { status: 'pending' | 'held' | 'succeeded' | 'failed'; delayMs?: number };
}

/** How a batch changes endpoints' circuits, per URL, and when a circuit opens. */
export interface CircuitChanges {
  /** URLs whose last attempt succeeded with no failure after it. */
  closed: string[];
  /** URLs whose failures add to their count. */
  counted: [string, { failures: number }][];
  /** URLs that succeeded and then failed again in the batch: their count starts over. */
  restarted: [string, { failures: number }][];
  threshold: number;
  cooldownSeconds: number;
}

/** webhooks.attempts, with the delivery state and the circuits each attempt changes. */
@Injectable()
export class AttemptsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The whole batch in one statement, so one round trip and atomic: the attempts, their
   * deliveries' new state, and the circuits (a success closes its endpoint's; failures count
   * towards opening it, from zero for an endpoint that succeeded earlier in the batch). Planned
   * each time, not prepared: a generic plan, blind to the arrays' sizes, made it several times slower.
   */
  async record(attempts: RecordedAttempt[], circuits: CircuitChanges): Promise<void> {
    const column = <T>(pick: (attempt: RecordedAttempt) => T) => attempts.map(pick);
    const failing = (reset: boolean) => (reset ? circuits.restarted : circuits.counted);
    await this.dataSource.query(
      `WITH attempts AS (
         INSERT INTO webhooks.attempts (delivery_id, attempt, started_at, latency_ms, status_code, error, response_body)
         SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[])
       ),
       deliveries AS (
         UPDATE webhooks.deliveries d SET status = v.status, lease_until = NULL, last_status_code = v.status_code, updated_at = now(),
           next_attempt_at = CASE WHEN v.status = 'pending' THEN now() + make_interval(secs => v.delay_seconds) ELSE d.next_attempt_at END
         FROM unnest($1::text[], $8::text[], $5::int[], $9::float8[]) AS v (id, status, status_code, delay_seconds)
         WHERE d.id = v.id
       ),
       closed AS (
         UPDATE webhooks.circuits SET consecutive_failures = 0, open_until = NULL WHERE url = ANY($10) AND consecutive_failures > 0
       ),
       counted AS (
         INSERT INTO webhooks.circuits AS c (url, consecutive_failures) SELECT * FROM unnest($11::text[], $12::int[])
         ON CONFLICT (url) DO UPDATE SET consecutive_failures = c.consecutive_failures + excluded.consecutive_failures,
           open_until = CASE WHEN c.consecutive_failures + excluded.consecutive_failures >= $15 THEN now() + make_interval(secs => $16) ELSE c.open_until END
       ),
       restarted AS (
         INSERT INTO webhooks.circuits AS c (url, consecutive_failures) SELECT * FROM unnest($13::text[], $14::int[])
         ON CONFLICT (url) DO UPDATE SET consecutive_failures = excluded.consecutive_failures,
           open_until = CASE WHEN excluded.consecutive_failures >= $15 THEN now() + make_interval(secs => $16) ELSE c.open_until END
       )
       SELECT 1`,
      [
        column((attempt) => attempt.delivery.id),
        column((attempt) => attempt.delivery.attempts),
        column((attempt) => attempt.startedAt),
        column((attempt) => attempt.latencyMs),
        column((attempt) => attempt.statusCode),
        column((attempt) => attempt.error),
        column((attempt) => attempt.responseBody),
        column((attempt) => attempt.next.status),
        column((attempt) => (attempt.next.delayMs ?? 0) / 1000),
        circuits.closed,
        failing(false).map(([url]) => url),
        failing(false).map(([, circuit]) => circuit.failures),
        failing(true).map(([url]) => url),
        failing(true).map(([, circuit]) => circuit.failures),
        circuits.threshold,
        circuits.cooldownSeconds,
      ],
    );
  }
}
