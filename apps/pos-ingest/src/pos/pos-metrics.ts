import { Injectable } from '@nestjs/common';
import { PosDecryptFailure } from '@payments/platform-crypto';
import { Metrics } from '@payments/platform-metrics';
import { Counter, Gauge, Histogram } from 'prom-client';

import { Env } from '../config/env';

/** What became of a submission that reached the service (a body that fails its schema does not). */
export type PosOutcome =
  | 'accepted'
  | 'terminal_not_found'
  | 'live_mode'
  | 'undecryptable'
  | 'invalid_payload'
  | 'rate_limited'
  | 'failures_limited'
  | 'at_capacity'
  | 'not_published';

/**
 * What SREs scale and alert pos-ingest on: publishes in flight against POS_MAX_IN_FLIGHT (at
 * the limit a submission is refused with a 503), submissions by outcome, how long the broker
 * takes to acknowledge one, and why encrypted data did not open (a terminal with a stale key
 * shows as bad_padding). Labels are fixed sets: never a serial number or an address, which
 * anyone sending junk could multiply without end.
 */
@Injectable()
export class PosMetrics {
  private readonly outcomes: Counter<'outcome'>;
  private readonly decryptFailures: Counter<'reason'>;
  private readonly publishSeconds: Histogram;

  constructor(
    private readonly metrics: Metrics,
    env: Env,
  ) {
    const registers = [metrics.registry];
    this.outcomes = new Counter({
      name: 'pos_submissions_total',
      help: 'POS submissions by outcome: accepted, or why refused',
      labelNames: ['outcome'],
      registers,
    });
    this.decryptFailures = new Counter({
      name: 'pos_decrypt_failures_total',
      help: "Submissions whose data did not open with the terminal's key, by reason",
      labelNames: ['reason'],
      registers,
    });
    this.publishSeconds = new Histogram({
      name: 'pos_publish_duration_seconds',
      help: 'From handing an accepted transaction to the producer to the broker acknowledging it (acks=all)',
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    new Gauge({
      name: 'pos_in_flight_limit',
      help: 'POS_MAX_IN_FLIGHT: publishes in flight beyond which submissions are refused',
      registers,
    }).set(env.POS_MAX_IN_FLIGHT);
  }

  /** Reports `read()` as the publishes in flight at each scrape. */
  watchInFlight(read: () => number): void {
    new Gauge({
      name: 'pos_in_flight',
      help: 'Publishes of accepted transactions waiting for the broker',
      registers: [this.metrics.registry],
      collect() {
        this.set(read());
      },
    });
  }

  counted(outcome: PosOutcome): void {
    this.outcomes.inc({ outcome });
  }

  undecryptable(reason: PosDecryptFailure): void {
    this.decryptFailures.inc({ reason });
  }

  /** Times one publish; call the returned function once the broker acknowledged it. */
  publishTimer(): () => void {
    return this.publishSeconds.startTimer();
  }
}
