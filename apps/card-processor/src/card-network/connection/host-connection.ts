import { connect as connectTcp, Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

import { IsoMessage } from '../iso8583/codec';
import { Backoff } from './backoff';
import { ClockTimer } from './clock';
import { ConnectionContext, HostAddress } from './connection-settings';
import { HostSession } from './host-session';

/** What a connection tells its pool. */
export interface ConnectionEvents {
  /** The connection closed; requests written on it will get no answer on it. */
  lost(connection: HostConnection, wasReady: boolean): void;
  message(message: IsoMessage, connection: HostConnection): void;
  malformed(connection: HostConnection): void;
  /** A new attempt is due in `delayMs`. */
  retrying(connection: HostConnection, delayMs: number): void;
}

/**
 * One persistent connection to the host: a session at a time, and a new one, after a backoff
 * delay, whenever the last closed (refused, unanswered or lost), until `close()`.
 */
export class HostConnection {
  private session?: HostSession;
  private retryTimer: ClockTimer;
  private closing = false;
  private readonly backoff: Backoff;

  constructor(
    readonly id: number,
    private readonly address: HostAddress,
    private readonly context: ConnectionContext,
    private readonly events: ConnectionEvents,
    random?: () => number,
  ) {
    this.backoff = new Backoff(context.timings.backoffInitialMs, context.timings.backoffMaxMs, random);
  }

  /** Opens the first session. */
  start(): void {
    if (!this.session && !this.closing) this.open();
  }

  /** Signed on: `send` may be called. */
  get ready(): boolean {
    return this.session?.ready ?? false;
  }

  /** Writes one framed message; throws when the connection is not ready. */
  send(framed: Buffer): void {
    if (!this.session) throw new Error('the connection is not open');
    this.session.send(framed);
  }

  /** Signs off and closes, and opens no new session. */
  async close(): Promise<void> {
    this.closing = true;
    this.context.clock.clearTimeout(this.retryTimer);
    await this.session?.end();
  }

  private open(): void {
    const { host, port, tls } = this.address;
    const socket: Socket = tls
      ? connectTls({ host, port, ca: tls.ca, servername: tls.servername })
      : connectTcp({ host, port });
    // Small messages, each waited for: send each at once rather than batching them (Nagle).
    socket.setNoDelay(true);
    this.session = new HostSession(socket, tls ? 'secureConnect' : 'connect', this.context, {
      ready: () => this.backoff.reset(),
      message: (message) => this.events.message(message, this),
      malformed: () => this.events.malformed(this),
      closed: (wasReady) => {
        this.session = undefined;
        this.events.lost(this, wasReady);
        this.retry();
      },
    });
  }

  private retry(): void {
    if (this.closing) return;
    const delayMs = this.backoff.next();
    this.events.retrying(this, delayMs);
    this.retryTimer = this.context.clock.setTimeout(() => {
      if (!this.closing) this.open();
    }, delayMs);
  }
}
