import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { BatchedWrites } from '@payments/platform-async';
import { Metrics } from '@payments/platform-metrics';
import { Counter } from 'prom-client';

import { Env } from '../config/env';
import { AttemptsRepository, CircuitChanges, RecordedAttempt } from './attempts.repository';

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
  private readonly writes = new BatchedWrites<RecordedAttempt>((attempts) => this.write(attempts), maxBatch);
  /** Attempts by what they led to: succeeded, pending (a retry is due), held or failed (gave up). */
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    private readonly attempts: AttemptsRepository,
    private readonly env: Env,
    metrics: Metrics,
  ) {
    this.outcomes = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Delivery attempts recorded, by what they led to (succeeded, pending, held, failed)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  }

  record(attempt: RecordedAttempt): Promise<void> {
    return this.writes.add(attempt);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writes.drained();
  }

  private async write(attempts: RecordedAttempt[]): Promise<void> {
    try {
      await this.attempts.record(attempts, this.circuitChanges(attempts));
    } catch (error) {
      this.logger.error(
        { err: error, attempts: attempts.length },
        'recording delivery attempts failed; their leases expire and they are tried again',
      );
      throw error;
    }
    for (const { next } of attempts) this.outcomes.inc({ outcome: next.status });
  }

  /** Per endpoint, in order: a success resets the count of consecutive failures, each failure adds one. */
  private circuitChanges(attempts: RecordedAttempt[]): CircuitChanges {
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
    return {
      closed,
      counted: counted(false),
      restarted: counted(true),
      threshold: this.env.WEBHOOK_CIRCUIT_THRESHOLD,
      cooldownSeconds: this.env.WEBHOOK_CIRCUIT_COOLDOWN_MS / 1000,
    };
  }
}
