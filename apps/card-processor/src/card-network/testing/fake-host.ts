import { createServer, Server, Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

import { LoggerService } from '@nestjs/common';
import { Registry } from 'prom-client';

import { HostConnector, HostConnectorOptions } from '../connection/host-connector';
import { IsoMessage, pack, unpack } from '../iso8583/codec';
import { frame, FrameReader } from '../iso8583/framing';

/**
 * A host for the connection tests, on 127.0.0.1 and a port of the system's choosing: the
 * contract's framing and the repo's codec, with knobs to misbehave. Test code only.
 */

/** The fields a host copies from a request into its answer (the contract's "What the host answers"). */
const echoedFields = [3, 4, 7, 11, 37, 41, 42, 49, 70, 90];

/** The answer a well-behaved host gives: MTI + 10, the request's identifying fields, and `code` in DE39. */
export function answerTo(request: IsoMessage, code = '00'): IsoMessage {
  const fields = new Map<number, string>();
  for (const number of echoedFields) {
    const value = request.fields.get(number);
    if (value !== undefined) fields.set(number, value);
  }
  fields.set(39, code);
  const mti = `${request.mti.slice(0, 2)}${Number(request.mti[2]) + 1}0`;
  return { mti, fields };
}

export class FakeHostConnection {
  readonly received: IsoMessage[] = [];
  readonly acceptedAt = Date.now();
  private readonly reader = new FrameReader();

  constructor(
    readonly socket: Socket,
    onMessage: (message: IsoMessage, from: FakeHostConnection) => void,
  ) {
    socket.on('data', (chunk: Buffer) => {
      for (const bytes of this.reader.push(chunk)) {
        const message = unpack(bytes);
        this.received.push(message);
        onMessage(message, this);
      }
    });
    socket.on('error', () => undefined);
  }

  get open(): boolean {
    return !this.socket.destroyed;
  }

  send(message: IsoMessage): void {
    if (this.open) this.socket.write(frame(pack(message)));
  }

  /** Writes `bytes` as one frame, whatever they are. */
  sendRaw(bytes: Buffer): void {
    if (this.open) this.socket.write(frame(bytes));
  }

  close(): void {
    this.socket.destroy();
  }
}

export class FakeHost {
  /** Every connection accepted, in order, open or not. */
  readonly connections: FakeHostConnection[] = [];
  /** Answer sign-ons with `00`, with `91`, or not at all. */
  signOn: 'approve' | 'refuse' | 'ignore' = 'approve';
  /** Refuse this many sign-ons first, whatever `signOn` says. */
  refusals = 0;
  /** Answer echo tests, or let them go unanswered. */
  echo: 'answer' | 'ignore' = 'answer';
  /** What the host does with every message but an 0800; by default, answers it at once where it came. */
  respond: (request: IsoMessage, from: FakeHostConnection) => void = (request, from) => from.send(answerTo(request));

  private constructor(private readonly server: Server) {}

  /** Listens on 127.0.0.1; over TLS with `tls`'s key and certificate. */
  static async listen(tls?: { key: string; cert: string }): Promise<FakeHost> {
    const server = tls ? createTlsServer(tls) : createServer();
    const host = new FakeHost(server);
    server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      host.connections.push(new FakeHostConnection(socket, (message, from) => host.received(message, from)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return host;
  }

  get port(): number {
    const address = this.server.address();
    if (typeof address !== 'object' || !address) throw new Error('not listening');
    return address.port;
  }

  get open(): FakeHostConnection[] {
    return this.connections.filter((connection) => connection.open);
  }

  async stop(): Promise<void> {
    for (const connection of this.connections) connection.close();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private received(message: IsoMessage, from: FakeHostConnection): void {
    if (message.mti !== '0800') return this.respond(message, from);
    const code = message.fields.get(70);
    if (code === '001') this.answerSignOn(message, from);
    if (code === '301' && this.echo === 'answer') from.send(answerTo(message));
    if (code === '002') from.send(answerTo(message));
  }

  private answerSignOn(request: IsoMessage, from: FakeHostConnection): void {
    const policy = this.refusals > 0 ? 'refuse' : this.signOn;
    if (this.refusals > 0) this.refusals--;
    if (policy !== 'ignore') from.send(answerTo(request, policy === 'approve' ? '00' : '91'));
  }
}

/** Resolves once `check` holds (returns true, or does not throw); rejects with its last failure after `timeoutMs`. */
export async function eventually(check: () => boolean | void, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      if (check() !== false) return;
      failure = new Error('the condition did not hold');
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** An 0200 as the flows build it, with test card data; `stan` and `rrn` are what matches its answer. */
export function paymentRequest(stan: number, rrn = `R${String(stan).padStart(11, '0')}`): IsoMessage {
  return {
    mti: '0200',
    fields: new Map([
      [2, '5060990580000217499'],
      [3, '000000'],
      [4, '000000010000'],
      [7, '0101120000'],
      [11, String(stan).padStart(6, '0')],
      [37, rrn],
      [41, 'TERM0001'],
      [42, 'MERCHANT0000001'],
      [49, '566'],
    ]),
  };
}

/** Intervals short enough for tests; idle long enough that no echo interferes unless a test wants one. */
export const testTimings = {
  connectTimeoutMs: 1_000,
  networkTimeoutMs: 150,
  idleMs: 60_000,
  backoffInitialMs: 20,
  backoffMaxMs: 80,
};

export interface LogLine {
  level: 'log' | 'warn' | 'error';
  fields: Record<string, unknown>;
  text: string;
}

/** Keeps what the connector logs, for tests to read. */
export class RecordingLogger implements LoggerService {
  readonly lines: LogLine[] = [];

  log(fields: Record<string, unknown>, text: string): void {
    this.lines.push({ level: 'log', fields, text });
  }

  warn(fields: Record<string, unknown>, text: string): void {
    this.lines.push({ level: 'warn', fields, text });
  }

  error(fields: Record<string, unknown>, text: string): void {
    this.lines.push({ level: 'error', fields, text });
  }

  /** The fields of each line that says `text`. */
  fieldsOf(text: string): Record<string, unknown>[] {
    return this.lines.filter((line) => line.text === text).map((line) => line.fields);
  }
}

/** A connector to `host` with test settings; its 0800s take STANs from 900001 up. */
export function connectorTo(host: FakeHost, options: Partial<HostConnectorOptions> = {}) {
  let stan = 900_000;
  const registry = new Registry();
  const logger = new RecordingLogger();
  const connector = new HostConnector({
    name: 'sandbox',
    host: '127.0.0.1',
    port: host.port,
    stans: async () => String(++stan),
    registry,
    connections: 2,
    requestTimeoutMs: 500,
    timings: testTimings,
    logger,
    ...options,
  });
  return { connector, registry, logger };
}

/** The value of one series of a metric (`series` names a histogram's `_count` or `_sum`), 0 when it has none. */
export async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
  series: string = name,
): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const found = values.find(
    (value) =>
      ((value as { metricName?: string }).metricName ?? name) === series &&
      Object.entries(labels).every(([label, wanted]) => String(value.labels[label]) === wanted),
  );
  return found?.value ?? 0;
}
