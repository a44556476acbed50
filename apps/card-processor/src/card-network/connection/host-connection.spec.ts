import {
  connectorTo,
  eventually,
  FakeHost,
  metricValue,
  paymentRequest,
  RecordingLogger,
  testTimings,
} from '../testing/fake-host';
import { systemClock } from './clock';
import { NotSentError } from './errors';
import { HostConnector } from './host-connector';

/** The delays the connector logged before each reconnect. */
const reconnectDelays = (logger: RecordingLogger): number[] =>
  logger.fieldsOf('reconnecting to the host').map((fields) => fields.delayMs as number);

describe('a connection to the host', () => {
  let host: FakeHost;
  let connector: HostConnector | undefined;

  beforeEach(async () => {
    host = await FakeHost.listen();
    connector = undefined;
  });

  afterEach(async () => {
    await connector?.close();
    await host.stop();
  });

  it('signs on first, and accepts no request until the host approves the sign-on', async () => {
    host.signOn = 'ignore';
    const clock = { ...systemClock, now: () => Date.parse('2026-03-04T05:06:07.890Z') };
    ({ connector } = connectorTo(host, { connections: 1, clock }));
    await eventually(() => host.connections[0]?.received.length === 1);

    await expect(connector.exchange(paymentRequest(1))).rejects.toEqual(
      expect.objectContaining({ constructor: NotSentError, reason: 'no-ready-connection' }),
    );
    const [signOn] = host.connections[0].received;
    expect(signOn.mti).toBe('0800');
    expect(Object.fromEntries(signOn.fields)).toEqual({ 7: '0304050607', 11: '900001', 70: '001' });

    host.signOn = 'approve';
    await eventually(() => connector!.state().ready === 1);
    await expect(connector.exchange(paymentRequest(2))).resolves.toMatchObject({ mti: '0210' });
    for (const connection of host.connections) expect(connection.received[0].fields.get(70)).toBe('001');
  });

  it('closes a connection whose sign-on is refused, and tries again after ever longer delays', async () => {
    host.refusals = 4;
    const started = connectorTo(host, { connections: 1, random: () => 0 });
    connector = started.connector;

    await eventually(() => connector!.state().ready === 1);
    expect(host.connections).toHaveLength(5);
    expect(host.connections.slice(0, 4).some((connection) => connection.open)).toBe(false);
    // The jitter at its least: half of 20, 40, 80, then 80 again (the ceiling).
    expect(reconnectDelays(started.logger)).toEqual([10, 20, 40, 40]);
    host.connections.slice(1).forEach((connection, index) => {
      expect(connection.acceptedAt - host.connections[index].acceptedAt).toBeGreaterThanOrEqual(
        [10, 20, 40, 40][index] - 2,
      );
    });
    expect(await metricValue(started.registry, 'card_network_reconnects_total', { network: 'sandbox' })).toBe(4);
  });

  it('gives up a sign-on the host does not answer in time, and connects again', async () => {
    host.signOn = 'ignore';
    const started = connectorTo(host, { connections: 1 });
    connector = started.connector;

    await eventually(() => host.connections.length === 2);
    expect(host.connections[0].open).toBe(false);
    expect(started.logger.fieldsOf('closing the host connection')).toContainEqual(
      expect.objectContaining({ reason: 'sign-on failed: no 0810 to the sign-on within 150 ms' }),
    );
    host.signOn = 'approve';
    await eventually(() => connector!.state().ready === 1);
  });

  it('reconnects and signs on again after the host closes the connection, the delay back at its shortest', async () => {
    host.refusals = 2;
    const started = connectorTo(host, { connections: 1, random: () => 0 });
    connector = started.connector;
    await eventually(() => connector!.state().ready === 1);

    host.connections[2].close();
    await eventually(() => connector!.state().ready === 1 && host.connections.length === 4);
    expect(host.connections[3].received[0].fields.get(70)).toBe('001');
    expect(reconnectDelays(started.logger)).toEqual([10, 20, 10]);
    await expect(connector.exchange(paymentRequest(1))).resolves.toMatchObject({ mti: '0210' });
  });

  it('echo-tests a connection on which nothing has come for a while, and keeps it while the host answers', async () => {
    ({ connector } = connectorTo(host, { connections: 1, timings: { ...testTimings, idleMs: 40 } }));
    await eventually(() => connector!.state().ready === 1);

    await eventually(
      () => host.connections[0].received.filter((message) => message.fields.get(70) === '301').length >= 3,
    );
    const echo = host.connections[0].received.find((message) => message.fields.get(70) === '301')!;
    expect(echo.mti).toBe('0800');
    expect([...echo.fields.keys()]).toEqual([7, 11, 70]);
    expect(host.connections).toHaveLength(1);
    expect(connector.state().ready).toBe(1);
  });

  it('takes a connection whose echo test goes unanswered for dead: closes it and signs on anew', async () => {
    host.echo = 'ignore';
    const started = connectorTo(host, { connections: 1, timings: { ...testTimings, idleMs: 40 } });
    connector = started.connector;
    await eventually(() => connector!.state().ready === 1);

    await eventually(() => host.connections.length === 2 && connector!.state().ready === 1);
    expect(host.connections[0].open).toBe(false);
    expect(started.logger.fieldsOf('closing the host connection')).toContainEqual(
      expect.objectContaining({ reason: 'the connection is dead: no 0810 to the echo within 150 ms' }),
    );
  });

  it('keeps a connection when no STAN can be had for its echo test, and tries again at the next idle spell', async () => {
    let stansGiven = 0;
    const stans = async () => {
      if (++stansGiven > 1) throw new Error('the database is away');
      return '900001';
    };
    const started = connectorTo(host, { connections: 1, stans, timings: { ...testTimings, idleMs: 30 } });
    connector = started.connector;
    await eventually(() => connector!.state().ready === 1);

    await eventually(() => started.logger.fieldsOf('no STAN for an echo test').length >= 2);
    expect(host.connections).toHaveLength(1);
    expect(connector.state().ready).toBe(1);
  });

  it("answers the host's own echo test with an 0810 carrying its 7, 11 and 70", async () => {
    ({ connector } = connectorTo(host, { connections: 1 }));
    await eventually(() => connector!.state().ready === 1);

    const fields = new Map([
      [7, '1129101010'],
      [11, '000777'],
      [70, '301'],
    ]);
    host.connections[0].send({ mti: '0800', fields });
    await eventually(() => host.connections[0].received.some((message) => message.mti === '0810'));
    const answer = host.connections[0].received.find((message) => message.mti === '0810')!;
    expect(Object.fromEntries(answer.fields)).toEqual({ 7: '1129101010', 11: '000777', 39: '00', 70: '301' });
  });

  it('counts and logs, without its contents, a frame that does not unpack, and goes on with the rest', async () => {
    const pan = '5060990580000217499';
    let held: (() => void) | undefined;
    host.respond = (request, from) => {
      held = () => {
        from.sendRaw(Buffer.from(`0210ZZZZ${pan}`, 'latin1'));
        from.sendRaw(Buffer.from(`0200700000000000000016${pan}XX`, 'latin1'));
        from.send({ mti: '0210', fields: new Map([...request.fields, [39, '00']]) });
      };
    };
    const started = connectorTo(host, { connections: 1 });
    connector = started.connector;
    await eventually(() => connector!.state().ready === 1);

    const answer = connector.exchange(paymentRequest(1));
    await eventually(() => held !== undefined);
    held!();
    await expect(answer).resolves.toMatchObject({ mti: '0210' });
    expect(await metricValue(started.registry, 'card_network_malformed_frames_total', { network: 'sandbox' })).toBe(2);
    const logged = JSON.stringify(started.logger.lines);
    expect(logged).toContain('a frame from the host did not unpack');
    expect(logged).not.toContain(pan);
    expect(connector.state().ready).toBe(1);
  });

  it('signs off when closed, and opens no new connection', async () => {
    ({ connector } = connectorTo(host, { connections: 2 }));
    await eventually(() => connector!.state().ready === 2);

    await connector.close();
    for (const connection of host.connections) {
      const last = connection.received.at(-1)!;
      expect([last.mti, last.fields.get(70)]).toEqual(['0800', '002']);
    }
    await eventually(() => host.open.length === 0);
    await new Promise((resolve) => setTimeout(resolve, 3 * testTimings.backoffMaxMs));
    expect(host.connections).toHaveLength(2);
    await expect(connector.exchange(paymentRequest(1))).rejects.toMatchObject({ reason: 'closed' });
  });
});
