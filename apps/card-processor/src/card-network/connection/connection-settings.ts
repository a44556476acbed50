import { LoggerService } from '@nestjs/common';

import { Clock } from './clock';

/** The contract's intervals (docs/card-network.md, "Connection"); options so tests can use milliseconds. */
export interface ConnectionTimings {
  /** How long a TCP (and TLS) connect may take before the attempt is given up. */
  connectTimeoutMs: number;
  /** How long a sign-on, echo or sign-off waits for its 0810. */
  networkTimeoutMs: number;
  /** Nothing received for this long on a signed-on connection: echo-test it. */
  idleMs: number;
  /** The first reconnect delay, doubled after each failure up to `backoffMaxMs`. */
  backoffInitialMs: number;
  backoffMaxMs: number;
}

export const defaultTimings: ConnectionTimings = {
  connectTimeoutMs: 10_000,
  networkTimeoutMs: 10_000,
  idleMs: 30_000,
  backoffInitialMs: 500,
  backoffMaxMs: 30_000,
};

/** TLS to the host; absent, plain TCP. */
export interface HostTls {
  /** PEM of the CA the host's certificate must chain to; absent, the system's CAs. */
  ca?: string | Buffer;
  /** The name the certificate must carry, when it is not the host's address. */
  servername?: string;
}

/** The host a connector talks to. */
export interface HostAddress {
  host: string;
  port: number;
  tls?: HostTls;
}

/** A source of STANs (DE11, 6 digits) for the platform's own 0800s; the same one the flows use. */
export type StanSource = () => string | Promise<string>;

/** What a connection needs besides its address, shared by the connections of a pool. */
export interface ConnectionContext {
  /** Fields every log line carries: the host's name and the connection's number. Never card data. */
  logContext: Record<string, unknown>;
  stans: StanSource;
  clock: Clock;
  timings: ConnectionTimings;
  logger: LoggerService;
}
