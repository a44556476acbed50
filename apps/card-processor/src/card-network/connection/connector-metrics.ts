import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What became of a request given to `exchange`. */
export type RequestOutcome = 'answered' | 'timeout' | 'connection-lost' | 'not-sent';

/** What a connector reports at each scrape. */
export interface ConnectorReadings {
  inFlight(): number;
  connections(): { ready: number; total: number };
}

/**
 * The card network connections' metrics, one set per registry however many hosts share it; each
 * series carries `network`, the host's name from the options (`sandbox`, `live`). Labels are
 * fixed sets or the message's own MTI and response code: never a STAN, an RRN or card data.
 */
class Instruments {
  readonly readings = new Map<string, ConnectorReadings>();
  readonly requests: Counter<'network' | 'mti' | 'outcome' | 'response_code'>;
  readonly latency: Histogram<'network' | 'mti'>;
  readonly unmatched: Counter<'network' | 'mti'>;
  readonly malformed: Counter<'network'>;
  readonly reconnects: Counter<'network'>;

  constructor(registry: Registry) {
    const registers = [registry];
    const readings = this.readings;
    this.requests = new Counter({
      name: 'card_network_requests_total',
      help: 'Requests given to the host, by MTI, outcome and the DE39 of the answer (empty when none came)',
      labelNames: ['network', 'mti', 'outcome', 'response_code'],
      registers,
    });
    this.latency = new Histogram({
      name: 'card_network_request_duration_seconds',
      help: 'From writing a request to its answer, for the requests answered',
      labelNames: ['network', 'mti'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 7.5, 10, 15, 30],
      registers,
    });
    this.unmatched = new Counter({
      name: 'card_network_unmatched_answers_total',
      help: 'Answers that matched no request waiting (late, duplicated, or never asked for), by MTI',
      labelNames: ['network', 'mti'],
      registers,
    });
    this.malformed = new Counter({
      name: 'card_network_malformed_frames_total',
      help: 'Frames from the host that did not unpack, or that a close cut short',
      labelNames: ['network'],
      registers,
    });
    this.reconnects = new Counter({
      name: 'card_network_reconnects_total',
      help: 'Connection attempts scheduled after a connection failed, was refused sign-on, or was lost',
      labelNames: ['network'],
      registers,
    });
    new Gauge({
      name: 'card_network_requests_in_flight',
      help: 'Requests written to the host and waiting for their answers',
      labelNames: ['network'],
      registers,
      collect() {
        this.reset();
        for (const [network, reading] of readings) this.set({ network }, reading.inFlight());
      },
    });
    new Gauge({
      name: 'card_network_connections',
      help: 'Connections to the host by state: ready (signed on) or not_ready (connecting, signing on, waiting to retry)',
      labelNames: ['network', 'state'],
      registers,
      collect() {
        this.reset();
        for (const [network, reading] of readings) {
          const { ready, total } = reading.connections();
          this.set({ network, state: 'ready' }, ready);
          this.set({ network, state: 'not_ready' }, total - ready);
        }
      },
    });
  }
}

const byRegistry = new WeakMap<Registry, Instruments>();

/** One connector's view of the shared instruments. */
export class ConnectorMetrics {
  private readonly instruments: Instruments;

  constructor(
    registry: Registry,
    private readonly network: string,
    readings: ConnectorReadings,
  ) {
    this.instruments = byRegistry.get(registry) ?? new Instruments(registry);
    byRegistry.set(registry, this.instruments);
    this.instruments.readings.set(network, readings);
  }

  requested(mti: string, outcome: RequestOutcome, responseCode?: string): void {
    this.instruments.requests.inc({ network: this.network, mti, outcome, response_code: labelSafe(responseCode) });
  }

  answeredIn(mti: string, seconds: number): void {
    this.instruments.latency.observe({ network: this.network, mti }, seconds);
  }

  unmatched(mti: string): void {
    this.instruments.unmatched.inc({ network: this.network, mti });
  }

  malformed(): void {
    this.instruments.malformed.inc({ network: this.network });
  }

  reconnecting(): void {
    this.instruments.reconnects.inc({ network: this.network });
  }

  /** The connector is closed: its gauges leave the scrape. */
  detach(): void {
    this.instruments.readings.delete(this.network);
  }
}

/** DE39 is two characters from the host: anything else is one label value, not a new series each. */
function labelSafe(responseCode: string | undefined): string {
  if (responseCode === undefined) return '';
  return /^[0-9A-Z]{2}$/.test(responseCode) ? responseCode : 'other';
}
