import { Logger, LoggerService } from '@nestjs/common';
import { Registry } from 'prom-client';

import { IsoMessage, pack } from '../iso8583/codec';
import { frame } from '../iso8583/framing';
import { Clock, systemClock } from './clock';
import { ConnectionTimings, defaultTimings, HostAddress, StanSource } from './connection-settings';
import { ConnectorMetrics } from './connector-metrics';
import { NotSentError, OutcomeUnknownError } from './errors';
import { ConnectionEvents, HostConnection } from './host-connection';
import { answerMtiOf, matchKeyOf, PendingRequests } from './pending-requests';

export interface HostConnectorOptions extends HostAddress {
  /** The host's name in metrics and logs (`sandbox`, `live`): a label, so never anything variable. */
  name: string;
  /** Gives DE11 to the connections' own 0800s (sign-on, echo, sign-off). */
  stans: StanSource;
  /** Where the connector's metrics are registered; hosts may share one. */
  registry: Registry;
  /** Persistent connections to the host (CARD_NETWORK_CONNECTIONS). Default 2. */
  connections?: number;
  /** Requests waiting for answers beyond which new ones are refused (CARD_NETWORK_MAX_IN_FLIGHT). Default 256. */
  maxInFlight?: number;
  /** How long a request waits for its answer before its outcome is unknown (CARD_NETWORK_TIMEOUT_MS). Default 10 000. */
  requestTimeoutMs?: number;
  timings?: Partial<ConnectionTimings>;
  clock?: Clock;
  /** Jitter of the reconnect delays: a number in [0, 1). Default Math.random. */
  random?: () => number;
  logger?: LoggerService;
}

/** Called with each answer that matched no request waiting: a late approval must be reversed. */
export type UnmatchedAnswerListener = (message: IsoMessage) => void | Promise<void>;

/**
 * What the flows use to talk to one host: a pool of persistent connections, and the requests
 * written on them waiting for their answers, matched by DE11 and DE37 whichever connection an
 * answer comes back on. Each request ends answered, NotSentError (nothing to reverse) or
 * OutcomeUnknownError (reverse it).
 */
export class HostConnector {
  private readonly connections: HostConnection[];
  private readonly pending: PendingRequests;
  private readonly metrics: ConnectorMetrics;
  private readonly listeners: UnmatchedAnswerListener[] = [];
  private readonly clock: Clock;
  private readonly logger: LoggerService;
  private readonly requestTimeoutMs: number;
  private readonly maxInFlight: number;
  private nextConnection = 0;
  private closing?: Promise<void>;

  /** Opens the connections at once; each signs on, and reconnects whenever it is lost. */
  constructor(private readonly options: HostConnectorOptions) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? new Logger(HostConnector.name);
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.maxInFlight = options.maxInFlight ?? 256;
    this.pending = new PendingRequests(this.clock);
    this.metrics = new ConnectorMetrics(options.registry, options.name, {
      inFlight: () => this.pending.size,
      connections: () => this.state(),
    });
    const timings = { ...defaultTimings, ...options.timings };
    const count = options.connections ?? 2;
    this.connections = Array.from({ length: count }, (_, index) => {
      const logContext = { network: options.name, connection: index + 1 };
      const context = { logContext, stans: options.stans, clock: this.clock, timings, logger: this.logger };
      return new HostConnection(index + 1, options, context, this.connectionEvents(), options.random);
    });
    for (const connection of this.connections) connection.start();
  }

  /**
   * Writes `request` (which carries its DE11, and its DE37 but for 0800 and 0500) on a ready
   * connection and resolves with its answer.
   * @throws NotSentError when it was not written: nothing to reverse.
   * @throws OutcomeUnknownError when it was written and no answer came in time, or its connection closed first.
   */
  async exchange(request: IsoMessage): Promise<IsoMessage> {
    const mti = /^[0-9]{4}$/.test(request.mti) ? request.mti : 'invalid';
    const writtenAt = this.clock.now();
    let waiting: Promise<IsoMessage>;
    try {
      waiting = this.write(request);
    } catch (error) {
      this.metrics.requested(mti, 'not-sent');
      throw error;
    }
    try {
      const answer = await waiting;
      this.metrics.requested(mti, 'answered', answer.fields.get(39));
      this.metrics.answeredIn(mti, (this.clock.now() - writtenAt) / 1000);
      return answer;
    } catch (error) {
      if (error instanceof OutcomeUnknownError) this.metrics.requested(mti, error.reason);
      throw error;
    }
  }

  onUnmatchedAnswer(listener: UnmatchedAnswerListener): void {
    this.listeners.push(listener);
  }

  /** Connections signed on, of those configured. */
  state(): { ready: number; total: number } {
    return { ready: this.connections.filter((connection) => connection.ready).length, total: this.connections.length };
  }

  /**
   * Refuses new requests, lets those in flight end (answered or timed out), then signs off and
   * closes every connection.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.pending.drained();
      await Promise.all(this.connections.map((connection) => connection.close()));
      this.metrics.detach();
    })();
    return this.closing;
  }

  /** Writes the request and returns its wait for the answer; throws NotSentError when it cannot be written. */
  private write(request: IsoMessage): Promise<IsoMessage> {
    const { name } = this.options;
    if (this.closing) throw new NotSentError('closed', `the connector to ${name} is closing`);
    const answerMti = answerMtiOf(request.mti);
    if (!answerMti || !request.fields.has(11)) {
      throw new NotSentError('not-a-request', `a ${request.mti} without DE11 is not a request an answer can match`);
    }
    const key = matchKeyOf(request);
    if (this.pending.size >= this.maxInFlight) {
      throw new NotSentError(
        'in-flight-limit',
        `${this.maxInFlight} requests to ${name} are already waiting for answers`,
      );
    }
    if (this.pending.has(key)) {
      throw new NotSentError('duplicate', 'a request with the same STAN and RRN is already waiting for its answer');
    }
    const framed = packed(request);
    const connection = this.pick();
    if (!connection) throw new NotSentError('no-ready-connection', `no connection to ${name} is signed on`);
    try {
      connection.send(framed);
    } catch (error) {
      throw new NotSentError(
        'no-ready-connection',
        `the connection to ${name} refused the write: ${(error as Error).message}`,
      );
    }
    // Registered in the same turn as the write: no answer can be read before it.
    const timedOut = () =>
      new OutcomeUnknownError('timeout', `no ${answerMti} from ${name} within ${this.requestTimeoutMs} ms`);
    return this.pending.wait(key, answerMti, connection.id, this.requestTimeoutMs, timedOut);
  }

  /** The ready connection with the fewest requests waiting; ties taken in turn. */
  private pick(): HostConnection | undefined {
    let best: HostConnection | undefined;
    for (let offset = 0; offset < this.connections.length; offset++) {
      const connection = this.connections[(this.nextConnection + offset) % this.connections.length];
      if (!connection.ready) continue;
      if (!best || this.pending.countOn(connection.id) < this.pending.countOn(best.id)) best = connection;
    }
    this.nextConnection = (this.nextConnection + 1) % this.connections.length;
    return best;
  }

  private connectionEvents(): ConnectionEvents {
    const { name } = this.options;
    return {
      lost: (connection) =>
        this.pending.failOn(
          connection.id,
          () => new OutcomeUnknownError('connection-lost', `the connection to ${name} closed before the answer came`),
        ),
      message: (message) => this.answered(message),
      malformed: () => this.metrics.malformed(),
      retrying: (connection, delayMs) => {
        this.metrics.reconnecting();
        this.logger.log({ network: name, connection: connection.id, delayMs }, 'reconnecting to the host');
      },
    };
  }

  private answered(message: IsoMessage): void {
    if (this.pending.settle(message)) return;
    this.metrics.unmatched(message.mti);
    const context = {
      network: this.options.name,
      mti: message.mti,
      stan: message.fields.get(11),
      rrn: message.fields.get(37),
    };
    this.logger.warn(context, 'an answer matched no request waiting for it');
    for (const listener of this.listeners) {
      // A listener's failure is its own: it must not break reading the connection.
      Promise.resolve()
        .then(() => listener(message))
        .catch((error: unknown) =>
          this.logger.error({ ...context, err: error }, 'an unmatched answer listener failed'),
        );
    }
  }
}

/** The framed bytes of a request, or NotSentError naming the field at fault (never its value). */
function packed(request: IsoMessage): Buffer {
  try {
    return frame(pack(request));
  } catch (error) {
    throw new NotSentError('unpackable', `the request cannot be packed: ${(error as Error).message}`);
  }
}
