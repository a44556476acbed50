import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { Env } from '../config/env';
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

interface Waiting {
  attempt: RecordedAttempt;
  done: () => void;
  failed: (error: unknown) => void;
}

/** Attempts written together: one transaction per batch instead of one per delivery. */
const maxBatch = 500;

/**
 * Writes attempts back to PostgreSQL in batches: each attempt's row, its delivery's new state
 * and its endpoint's circuit, in one transaction for all attempts that finished meanwhile. A
 * delivery stays leased until its batch commits, so nobody sends it again in between; if the
 * process dies first, the lease expires and the attempt is made again (at least once).
 */
@Injectable()
export class AttemptRecorder implements BeforeApplicationShutdown {
  private readonly logger = new Logger(AttemptRecorder.name);
  private queue: Waiting[] = [];
  private flushing?: Promise<void>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly env: Env,
  ) {}

  record(attempt: RecordedAttempt): Promise<void> {
    return new Promise((done, failed) => {
      this.queue.push({ attempt, done, failed });
      this.flushing ??= this.flush();
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, maxBatch);
      try {
        await this.write(batch.map((waiting) => waiting.attempt));
        for (const waiting of batch) waiting.done();
      } catch (error) {
        this.logger.error(
          { err: error, attempts: batch.length },
          'recording delivery attempts failed; their leases expire and they are tried again',
        );
        for (const waiting of batch) waiting.failed(error);
      }
    }
    this.flushing = undefined;
  }

  private async write(attempts: RecordedAttempt[]): Promise<void> {
    const column = <T>(pick: (attempt: RecordedAttempt) => T) => attempts.map(pick);
    // Per endpoint, in order: a success resets the count of consecutive failures, each failure adds one.
    const circuits = new Map<string, { reset: boolean; failures: number }>();
    for (const { delivery, next } of attempts) {
      const circuit = circuits.get(delivery.url!) ?? { reset: false, failures: 0 };
      if (next.status === 'succeeded') Object.assign(circuit, { reset: true, failures: 0 });
      else circuit.failures += 1;
      circuits.set(delivery.url!, circuit);
    }
    const closed = [...circuits].filter(([, circuit]) => circuit.reset && circuit.failures === 0).map(([url]) => url);
    const counted = (reset: boolean) =>
      [...circuits].filter(([, circuit]) => circuit.reset === reset && circuit.failures > 0);
    await this.dataSource.transaction(async (em) => {
      await em.query(
        `INSERT INTO webhooks.attempts (delivery_id, attempt, started_at, latency_ms, status_code, error, response_body)
         SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[])`,
        [
          column((attempt) => attempt.delivery.id),
          column((attempt) => attempt.delivery.attempts),
          column((attempt) => attempt.startedAt),
          column((attempt) => attempt.latencyMs),
          column((attempt) => attempt.statusCode),
          column((attempt) => attempt.error),
          column((attempt) => attempt.responseBody),
        ],
      );
      await em.query(
        `UPDATE webhooks.deliveries d SET status = v.status, lease_until = NULL, last_status_code = v.status_code, updated_at = now(),
           next_attempt_at = CASE WHEN v.status = 'pending' THEN now() + make_interval(secs => v.delay_seconds) ELSE d.next_attempt_at END
         FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[]) AS v (id, status, status_code, delay_seconds)
         WHERE d.id = v.id`,
        [
          column((attempt) => attempt.delivery.id),
          column((attempt) => attempt.next.status),
          column((attempt) => attempt.statusCode),
          column((attempt) => (attempt.next.delayMs ?? 0) / 1000),
        ],
      );
      // A success closes its endpoint's circuit; failures count towards opening it.
      if (closed.length > 0) {
        await em.query(
          `UPDATE webhooks.circuits SET consecutive_failures = 0, open_until = NULL WHERE url = ANY($1) AND consecutive_failures > 0`,
          [closed],
        );
      }
      for (const [reset, failing] of [
        [false, counted(false)],
        [true, counted(true)],
      ] as const) {
        if (failing.length === 0) continue;
        await em.query(
          `INSERT INTO webhooks.circuits AS c (url, consecutive_failures) SELECT * FROM unnest($1::text[], $2::int[])
           ON CONFLICT (url) DO UPDATE SET consecutive_failures = ${reset ? '' : 'c.consecutive_failures + '}excluded.consecutive_failures,
             open_until = CASE WHEN ${reset ? '' : 'c.consecutive_failures + '}excluded.consecutive_failures >= $3 THEN now() + make_interval(secs => $4) ELSE c.open_until END`,
          [
            failing.map(([url]) => url),
            failing.map(([, circuit]) => circuit.failures),
            this.env.WEBHOOK_CIRCUIT_THRESHOLD,
            this.env.WEBHOOK_CIRCUIT_COOLDOWN_MS / 1000,
          ],
        );
      }
    });
  }
}
