import { Socket } from 'node:net';

import { IsoMessage, pack, unpack } from '../iso8583/codec';
import { frame, FrameReader } from '../iso8583/framing';
import { NetworkManagement, networkManagementMessage } from '../iso8583/messages';
import { ClockTimer } from './clock';
import { ConnectionContext } from './connection-settings';
import { matchKeyOf, PendingRequests } from './pending-requests';

/** What a session tells its connection. */
export interface SessionEvents {
  /** Signed on: the session accepts requests. */
  ready(): void;
  /** A message that is not this session's own network management: answers, for the connector to match. */
  message(message: IsoMessage): void;
  /** A frame that did not unpack, or one the host's close cut short. */
  malformed(): void;
  closed(wasReady: boolean): void;
}

const closedError = () => new Error('the connection closed');

/**
 * One socket to the host, from connecting to closed: signs on and accepts requests only once
 * the host approves, echo-tests the connection when nothing has come from it for a while,
 * answers the host's own echo tests, and signs off when asked to end. A session is never
 * reused: after it closes, its connection opens a new one.
 */
export class HostSession {
  private readonly reader = new FrameReader();
  /** This session's own 0800s waiting for their 0810s. */
  private readonly replies: PendingRequests;
  private signedOn = false;
  private ending = false;
  private echoing = false;
  private connectTimer: ClockTimer;
  private idleTimer: ClockTimer;

  constructor(
    private readonly socket: Socket,
    connectEvent: 'connect' | 'secureConnect',
    private readonly context: ConnectionContext,
    private readonly events: SessionEvents,
  ) {
    this.replies = new PendingRequests(context.clock);
    this.connectTimer = context.clock.setTimeout(
      () => this.destroy('connecting timed out'),
      context.timings.connectTimeoutMs,
    );
    socket.once(connectEvent, () => {
      context.clock.clearTimeout(this.connectTimer);
      void this.signOn();
    });
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    // The error's message names the address or the TLS failure, never message contents.
    socket.on('error', (error) =>
      context.logger.warn({ ...context.logContext, err: error.message }, 'host socket error'),
    );
    socket.once('close', () => this.closed());
  }

  /** Signed on, and not ending: requests may be written. */
  get ready(): boolean {
    return this.signedOn && !this.ending && !this.socket.destroyed;
  }

  /** Writes one framed message. Only on a ready session. */
  send(framed: Buffer): void {
    if (!this.ready) throw new Error('the connection is not signed on');
    this.socket.write(framed);
  }

  /** Signs off (best effort: the host may not answer) and closes the socket. */
  async end(): Promise<void> {
    if (this.socket.destroyed) return;
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    const wasReady = this.ready;
    this.ending = true;
    if (!wasReady) {
      this.socket.destroy();
      return closed;
    }
    // Best effort: without a STAN, or without the host's 0810, the connection closes all the same.
    await Promise.resolve(this.context.stans())
      .then((stan) => this.manage('sign-off', stan))
      .catch(() => undefined);
    const { clock, timings } = this.context;
    const timer = clock.setTimeout(() => this.socket.destroy(), timings.networkTimeoutMs);
    this.socket.end();
    await closed;
    clock.clearTimeout(timer);
  }

  private async signOn(): Promise<void> {
    try {
      const answer = await this.manage('sign-on', await this.context.stans());
      const code = answer.fields.get(39);
      if (code !== '00') return this.destroy(`the host refused the sign-on (${code ?? 'no response code'})`);
      this.signedOn = true;
      this.context.logger.log(this.context.logContext, 'signed on to the host');
      this.armIdle();
      this.events.ready();
    } catch (error) {
      this.destroy(`sign-on failed: ${(error as Error).message}`);
    }
  }

  /** Sends one of this session's 0800s and waits for its 0810. */
  private manage(kind: NetworkManagement, stan: string): Promise<IsoMessage> {
    const { clock, timings } = this.context;
    if (!this.socket.writable) return Promise.reject(closedError());
    const request = networkManagementMessage(kind, stan, new Date(clock.now()));
    const framed = frame(pack(request));
    const timedOut = () => new Error(`no 0810 to the ${kind} within ${timings.networkTimeoutMs} ms`);
    const reply = this.replies.wait(matchKeyOf(request), '0810', 0, timings.networkTimeoutMs, timedOut);
    this.socket.write(framed);
    return reply;
  }

  private receive(chunk: Buffer): void {
    for (const bytes of this.reader.push(chunk)) {
      this.armIdle();
      const message = this.unpacked(bytes);
      if (message) this.dispatch(message);
    }
  }

  private unpacked(bytes: Buffer): IsoMessage | undefined {
    try {
      return unpack(bytes);
    } catch (error) {
      // The bytes may hold card data: log what is wrong with them (the codec's messages name
      // fields, never values), not what they are. The other frames on the connection go on.
      const { message, field } = error as { message: string; field?: number };
      this.context.logger.warn(
        { ...this.context.logContext, length: bytes.length, field, reason: message },
        'a frame from the host did not unpack',
      );
      this.events.malformed();
      return undefined;
    }
  }

  private dispatch(message: IsoMessage): void {
    if (message.mti === '0800') return this.answerHostEcho(message);
    if (message.mti === '0810' && this.replies.settle(message)) return;
    this.events.message(message);
  }

  /** The host's 0800 (an echo test, usually): 0810 with its 7, 11 and 70, approved. */
  private answerHostEcho(request: IsoMessage): void {
    const fields = new Map<number, string>();
    for (const number of [7, 11, 70]) {
      const value = request.fields.get(number);
      if (value !== undefined) fields.set(number, value);
    }
    fields.set(39, '00');
    if (this.socket.writable) this.socket.write(frame(pack({ mti: '0810', fields })));
  }

  /** Restarts the idle countdown: anything received shows the connection alive. */
  private armIdle(): void {
    if (!this.signedOn) return;
    this.context.clock.clearTimeout(this.idleTimer);
    this.idleTimer = this.context.clock.setTimeout(() => this.echo(), this.context.timings.idleMs);
  }

  private echo(): void {
    if (this.echoing || !this.ready) return;
    this.echoing = true;
    void this.echoTest().finally(() => (this.echoing = false));
  }

  private async echoTest(): Promise<void> {
    let stan: string;
    try {
      stan = await this.context.stans();
    } catch (error) {
      // No STAN says nothing about the host: keep the connection, and try at the next idle spell.
      this.context.logger.warn(
        { ...this.context.logContext, err: (error as Error).message },
        'no STAN for an echo test',
      );
      return this.armIdle();
    }
    try {
      await this.manage('echo', stan);
    } catch (error) {
      this.destroy(`the connection is dead: ${(error as Error).message}`);
    }
  }

  private destroy(reason: string): void {
    if (this.socket.destroyed) return;
    this.context.logger.warn({ ...this.context.logContext, reason }, 'closing the host connection');
    this.socket.destroy();
  }

  private closed(): void {
    const { clock, logger, logContext } = this.context;
    clock.clearTimeout(this.connectTimer);
    clock.clearTimeout(this.idleTimer);
    const wasReady = this.signedOn;
    this.signedOn = false;
    this.replies.failAll(closedError);
    if (this.reader.pending > 0) {
      logger.warn({ ...logContext, length: this.reader.pending }, 'the host closed the connection inside a frame');
      this.events.malformed();
    }
    if (wasReady && !this.ending) logger.warn(logContext, 'lost the connection to the host');
    this.events.closed(wasReady);
  }
}
