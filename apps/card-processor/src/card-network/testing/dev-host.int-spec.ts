import { createCipheriv } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DevHost, eventually, freePorts, startDevHost } from '@payments/testing';

import { IsoMessage, pack, unpack } from '../iso8583/codec';
import { frame, FrameReader } from '../iso8583/framing';

const zonePinKey = '0123456789ABCDEFFEDCBA9876543210';
const acquirer = '111129';
const ordinaryCard = '5060990000000000019';

/** A raw connection to the host: framed, packed, and answers kept until a test takes them. */
class Connection {
  private readonly received: IsoMessage[] = [];
  private readonly waiting = new Set<() => void>();
  closed = false;

  private constructor(private readonly socket: Socket) {
    const reader = new FrameReader();
    socket.on('data', (chunk) => {
      this.received.push(...reader.push(chunk).map(unpack));
      this.waiting.forEach((wake) => wake());
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting.forEach((wake) => wake());
    });
  }

  static open(port: number): Promise<Connection> {
    return new Promise((done, fail) => {
      const socket = connect(port, '127.0.0.1', () => done(new Connection(socket)));
      socket.once('error', fail);
    });
  }

  send(message: IsoMessage | Buffer): void {
    this.socket.write(frame(Buffer.isBuffer(message) ? message : pack(message)));
  }

  /** The next answer with this STAN, or null when none comes within `ms` (or the connection closes). */
  async answer(stan: string, ms = 5_000): Promise<IsoMessage | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const at = this.received.findIndex((m) => m.fields.get(11) === stan);
      if (at >= 0) return this.received.splice(at, 1)[0];
      if (this.closed || Date.now() >= deadline) return null;
      await new Promise<void>((wake) => {
        const done = () => {
          clearTimeout(timer);
          this.waiting.delete(done);
          wake();
        };
        const timer = setTimeout(done, deadline - Date.now());
        this.waiting.add(done);
      });
    }
  }

  async request(message: IsoMessage): Promise<IsoMessage> {
    this.send(message);
    const answer = await this.answer(message.fields.get(11)!);
    if (!answer) throw new Error(`no answer to ${message.mti} STAN ${message.fields.get(11)}`);
    return answer;
  }

  close(): void {
    this.socket.destroy();
  }
}

let sequence = 0;
const next = () => String(++sequence).padStart(6, '0');
const message = (mti: string, fields: Record<number, string>): IsoMessage => ({
  mti,
  fields: new Map(Object.entries(fields).map(([n, v]) => [Number(n), v])),
});
const signOn = () => message('0800', { 7: '1129101500', 11: next(), 70: '001' });

/** A 0200 with a new STAN and RRN (each host here is new, so unique within the run is enough). */
function purchase(pan: string, extra: Record<number, string> = {}): IsoMessage {
  const stan = next();
  return message('0200', {
    ...{ 2: pan, 3: '000000', 4: '150000', 7: '1129101500', 11: stan, 14: '3012', 32: acquirer },
    ...{ 37: `RRN${stan.padStart(9, '0')}`, 41: 'TERM0001', 42: 'MERCHANT0000001', 49: '566' },
    ...extra,
  });
}

function reversal(original: IsoMessage, mti = '0420'): IsoMessage {
  const fields = Object.fromEntries([2, 3, 4, 7, 32, 37, 41, 42, 49].map((n) => [n, original.fields.get(n)!]));
  const de90 = `0200${original.fields.get(11)}${original.fields.get(7)}${acquirer.padStart(11, '0')}00000000000`;
  return message(mti, { ...fields, 11: next(), 90: de90 });
}

/** An ISO 9564 format 0 PIN block under the zone PIN key, as a terminal's PIN reaches the host. */
function pinBlock(pin: string, pan: string): string {
  const clear = Buffer.from(`0${pin.length}${pin}`.padEnd(16, 'F'), 'hex');
  const panPart = Buffer.from(`0000${pan.slice(-13, -1)}`, 'hex');
  const cipher = createCipheriv('des-ede-ecb', Buffer.from(zonePinKey, 'hex'), null).setAutoPadding(false);
  const block = clear.map((byte, i) => byte ^ panPart[i]);
  return Buffer.concat([cipher.update(block), cipher.final()])
    .toString('hex')
    .toUpperCase();
}

const lagosDate = () =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Lagos', month: '2-digit', day: '2-digit' })
    .format(new Date())
    .split('/')
    .reverse()
    .join('');

describe('the development card host', () => {
  let host: DevHost;
  let port: number;
  let connection: Connection;

  beforeAll(async () => {
    let controlPort: number;
    [port, controlPort] = await freePorts(2);
    host = await startDevHost({ port, controlPort, zonePinKey });
    connection = await Connection.open(port);
    expect((await connection.request(signOn())).fields.get(39)).toBe('00');
  }, 300_000);

  afterAll(async () => {
    connection?.close();
    await host?.stop();
  });

  afterEach(() => host.clearFaults());

  it('approves an ordinary card with an authorisation code and the Lagos settlement date', async () => {
    const answer = await connection.request(purchase(ordinaryCard));
    expect(answer.mti).toBe('0210');
    expect(answer.fields.get(39)).toBe('00');
    expect(answer.fields.get(38)).toMatch(/^[0-9]{6}$/);
    expect(answer.fields.get(15)).toBe(lagosDate());
  });

  it.each([
    ['the declined card', '05', purchase('4000000000000002')],
    ['the insufficient funds card', '51', purchase('4000000000009995')],
    ['an expired card', '54', purchase(ordinaryCard, { 14: '2001' })],
    ['the right PIN', '00', purchase(ordinaryCard, { 52: pinBlock('1234', ordinaryCard) })],
    ['a wrong PIN', '55', purchase(ordinaryCard, { 52: pinBlock('9999', ordinaryCard) })],
  ])('answers %s with %s', async (_, code, request) => {
    expect((await connection.request(request)).fields.get(39)).toBe(code);
  });

  it('reverses an approved payment, and answers 25 for an RRN it never approved', async () => {
    const approved = purchase(ordinaryCard);
    await connection.request(approved);
    const answer = await connection.request(reversal(approved));
    expect([answer.mti, answer.fields.get(39)]).toEqual(['0430', '00']);
    expect((await connection.request(reversal(approved, '0421'))).fields.get(39)).toBe('00');
    expect((await connection.request(reversal(purchase(ordinaryCard)))).fields.get(39)).toBe('25');
  });

  it('books a payment whose reversal overtook it as reversed', async () => {
    const before = await host.totals(lagosDate());
    const late = purchase(ordinaryCard, { 4: '900' });
    expect((await connection.request(reversal(late))).fields.get(39)).toBe('25');
    expect((await connection.request(late)).fields.get(39)).toBe('00');
    expect(await host.totals(lagosDate())).toMatchObject({
      purchaseCount: before.purchaseCount,
      reversedCount: before.reversedCount + 1,
      reversedAmount: before.reversedAmount + 900,
    });
  });

  it('refunds only what an approved purchase has left', async () => {
    const bought = purchase(ordinaryCard, { 4: '1000' });
    await connection.request(bought);
    const refund = (amount: string, original = bought.fields.get(37)!) =>
      purchase(ordinaryCard, { 3: '200000', 4: amount, 48: `ORIG:${original}` });
    expect((await connection.request(refund('600'))).fields.get(39)).toBe('00');
    expect((await connection.request(refund('500'))).fields.get(39)).toBe('13');
    expect((await connection.request(refund('400'))).fields.get(39)).toBe('00');
    expect((await connection.request(refund('1', 'RRN999999999'))).fields.get(39)).toBe('25');
  });

  it('agrees with totals that match its own and answers 95 to others', async () => {
    const before = await host.totals(lagosDate());
    const bought = purchase(ordinaryCard, { 4: '700' });
    await connection.request(bought);
    const refund = purchase(ordinaryCard, { 3: '200000', 4: '200', 48: `ORIG:${bought.fields.get(37)}` });
    expect((await connection.request(refund)).fields.get(39)).toBe('00');
    const reconciliation = (purchaseAmount: number) =>
      message('0500', {
        ...{ 7: '1129235900', 11: next(), 15: lagosDate(), 50: '566' },
        ...{ 74: String(before.refundCount + 1), 86: String(before.refundAmount + 200) },
        ...{ 76: String(before.purchaseCount + 1), 88: String(purchaseAmount) },
        ...{ 77: String(before.reversedCount), 89: String(before.reversedAmount) },
        97: `C${purchaseAmount - before.refundAmount - 200}`,
      });
    const agreed = await connection.request(reconciliation(before.purchaseAmount + 700));
    expect([agreed.mti, agreed.fields.get(39)]).toEqual(['0510', '00']);
    expect((await connection.request(reconciliation(before.purchaseAmount + 701))).fields.get(39)).toBe('95');
  });

  it('answers late when told to delay', async () => {
    await host.faults([{ pan: ordinaryCard, action: 'delay', ms: 1_500 }]);
    const request = purchase(ordinaryCard);
    connection.send(request);
    expect(await connection.answer(request.fields.get(11)!, 1_000)).toBeNull();
    expect((await connection.answer(request.fields.get(11)!, 2_000))?.fields.get(39)).toBe('00');
  });

  it('books but never answers a dropped request, and answers its repeat as first decided', async () => {
    await host.faults([{ pan: ordinaryCard, action: 'drop', times: 1 }]);
    const request = purchase(ordinaryCard);
    connection.send(request);
    expect(await connection.answer(request.fields.get(11)!, 1_000)).toBeNull();
    const rrn = request.fields.get(37)!;
    expect(await host.messages(rrn)).toEqual([expect.objectContaining({ mti: '0200', de39: '00' })]);
    const repeat = await connection.request(request);
    expect(repeat.fields.get(39)).toBe('00');
    expect(await host.messages(rrn)).toHaveLength(2);
  });

  it('answers twice when told to', async () => {
    await host.faults([{ action: 'twice' }]);
    const request = purchase(ordinaryCard);
    connection.send(request);
    const first = await connection.answer(request.fields.get(11)!);
    expect(await connection.answer(request.fields.get(11)!)).toEqual(first);
  });

  it('closes the connection without answering when told to', async () => {
    await host.faults([{ action: 'close' }]);
    const request = purchase(ordinaryCard);
    connection.send(request);
    expect(await connection.answer(request.fields.get(11)!)).toBeNull();
    expect(connection.closed).toBe(true);
    connection = await Connection.open(port);
  });

  it('goes down for a while: connections closed and refused, then accepted again', async () => {
    await host.down(1_500);
    expect(await connection.answer('none', 1_000)).toBeNull();
    expect(connection.closed).toBe(true);
    await expect(Connection.open(port)).rejects.toThrow('ECONNREFUSED');
    // Back once the time is up: however long the host takes to listen again on a busy machine.
    connection = await eventually(() => Connection.open(port).catch(() => undefined), 15_000);
    expect((await connection.request(signOn())).fields.get(39)).toBe('00');
  });

  it('skips a frame it cannot read and goes on answering on that connection', async () => {
    connection.send(Buffer.from('not an ISO 8583 message'));
    expect((await connection.request(signOn())).mti).toBe('0810');
  });
});

describe('the development card host, restarted', () => {
  it('keeps its answers and totals', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'card-host-restart-'));
    const [port, controlPort] = await freePorts(2);
    const options = { port, controlPort, zonePinKey, dataDir };
    const request = purchase(ordinaryCard, { 4: '1234' });
    let host = await startDevHost(options);
    try {
      const first = await answerOnce(options.port, request);
      const totals = await host.totals(lagosDate());
      await host.stop();
      host = await startDevHost(options);
      expect(await answerOnce(options.port, request)).toEqual(first);
      expect(await host.totals(lagosDate())).toEqual(totals);
    } finally {
      await host.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  async function answerOnce(port: number, request: IsoMessage): Promise<IsoMessage> {
    const connection = await Connection.open(port);
    try {
      return await connection.request(request);
    } finally {
      connection.close();
    }
  }
});
