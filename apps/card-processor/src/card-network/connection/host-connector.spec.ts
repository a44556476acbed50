import { Registry } from 'prom-client';

import { IsoMessage } from '../iso8583/codec';
import {
  answerTo,
  connectorTo,
  eventually,
  FakeHost,
  FakeHostConnection,
  metricValue,
  paymentRequest,
} from '../testing/fake-host';
import { NotSentError, OutcomeUnknownError } from './errors';
import { HostConnector } from './host-connector';

type Held = { request: IsoMessage; from: FakeHostConnection };

/** Makes the host keep every request unanswered until the test answers it. */
function holdRequests(host: FakeHost): Held[] {
  const held: Held[] = [];
  host.respond = (request, from) => held.push({ request, from });
  return held;
}

const stanOf = (message: IsoMessage) => Number(message.fields.get(11));

describe('HostConnector', () => {
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

  async function ready(options: Parameters<typeof connectorTo>[1] = {}) {
    const started = connectorTo(host, options);
    connector = started.connector;
    const total = options.connections ?? 2;
    await eventually(() => started.connector.state().ready === total);
    return started;
  }

  it('matches answers that come back out of order', async () => {
    const held = holdRequests(host);
    await ready({ connections: 1 });
    const codes = ['00', '51', '05', '54', '55'];

    const answers = codes.map((_, index) => connector!.exchange(paymentRequest(index + 1)));
    await eventually(() => held.length === codes.length);
    for (const { request, from } of [...held].reverse()) from.send(answerTo(request, codes[stanOf(request) - 1]));

    const results = await Promise.all(answers);
    expect(results.map((answer) => [stanOf(answer), answer.fields.get(39)])).toEqual(
      codes.map((code, index) => [index + 1, code]),
    );
  });

  it('matches an answer that comes back on another connection of the pool', async () => {
    const held = holdRequests(host);
    await ready({ connections: 2 });

    const answers = [1, 2, 3, 4].map((stan) => connector!.exchange(paymentRequest(stan)));
    await eventually(() => held.length === 4);
    expect(new Set(held.map(({ from }) => from)).size).toBe(2);
    for (const { request, from } of held) host.open.find((other) => other !== from)!.send(answerTo(request));

    expect((await Promise.all(answers)).map(stanOf)).toEqual([1, 2, 3, 4]);
  });

  it('takes no answer whose RRN, or whose MTI, is not that of the answer to the request', async () => {
    const held = holdRequests(host);
    const { registry } = await ready({ connections: 1 });
    const unmatched: IsoMessage[] = [];
    connector!.onUnmatchedAnswer((message) => void unmatched.push(message));

    const answer = connector!.exchange(paymentRequest(7, 'RRN000000007'));
    await eventually(() => held.length === 1);
    const { request, from } = held[0];
    from.send({ ...answerTo(request), fields: new Map([...answerTo(request).fields, [37, 'RRN000000008']]) });
    from.send({ ...answerTo(request), mti: '0810' });
    from.send({ ...answerTo(request), mti: '0230' });
    from.send(answerTo(request, '05'));

    await expect(answer).resolves.toMatchObject({ mti: '0210', fields: expect.any(Map) });
    expect((await answer).fields.get(39)).toBe('05');
    await eventually(() => unmatched.length === 3);
    expect(unmatched.map((message) => message.mti)).toEqual(['0210', '0810', '0230']);
    expect(
      await metricValue(registry, 'card_network_unmatched_answers_total', { network: 'sandbox', mti: '0210' }),
    ).toBe(1);
  });

  it('gives up a request unanswered in time as OutcomeUnknownError(timeout), and hands its late answer to onUnmatchedAnswer', async () => {
    const held = holdRequests(host);
    const { registry } = await ready({ connections: 1, requestTimeoutMs: 100 });
    const unmatched: IsoMessage[] = [];
    connector!.onUnmatchedAnswer((message) => void unmatched.push(message));

    const answer = connector!.exchange(paymentRequest(1));
    await expect(answer).rejects.toThrow(OutcomeUnknownError);
    await expect(answer).rejects.toMatchObject({ reason: 'timeout', message: 'no 0210 from sandbox within 100 ms' });

    held[0].from.send(answerTo(held[0].request, '00'));
    await eventually(() => unmatched.length === 1);
    expect([unmatched[0].mti, stanOf(unmatched[0]), unmatched[0].fields.get(39)]).toEqual(['0210', 1, '00']);
    const requests = { network: 'sandbox', mti: '0200', outcome: 'timeout', response_code: '' };
    expect(await metricValue(registry, 'card_network_requests_total', requests)).toBe(1);
  });

  it('fails each request in flight on a connection that closes with OutcomeUnknownError(connection-lost), and only those', async () => {
    const held = holdRequests(host);
    const { registry } = await ready({ connections: 2 });

    const answers = [1, 2, 3, 4, 5, 6].map((stan) =>
      connector!.exchange(paymentRequest(stan)).then(
        (answer) => ['answered', stanOf(answer)],
        (error: OutcomeUnknownError) => [error.reason, stan],
      ),
    );
    await eventually(() => held.length === 6);
    const [lost, kept] = host.open;
    lost.close();
    for (const { request, from } of held) if (from === kept) kept.send(answerTo(request));

    const outcomes = await Promise.all(answers);
    const expected = held.map(({ request, from }) => [from === lost ? 'connection-lost' : 'answered', stanOf(request)]);
    expect(outcomes).toEqual(expect.arrayContaining(expected));
    expect(outcomes.filter(([outcome]) => outcome === 'connection-lost')).toHaveLength(3);
    const counted = { network: 'sandbox', mti: '0200', outcome: 'connection-lost', response_code: '' };
    expect(await metricValue(registry, 'card_network_requests_total', counted)).toBe(3);
    await eventually(() => connector!.state().ready === 2);
  });

  it('refuses a request beyond the in-flight limit with NotSentError, and writes nothing of it', async () => {
    const held = holdRequests(host);
    const { registry } = await ready({ connections: 2, maxInFlight: 3 });

    const waiting = [1, 2, 3].map((stan) => connector!.exchange(paymentRequest(stan)));
    await expect(connector!.exchange(paymentRequest(4))).rejects.toMatchObject({
      constructor: NotSentError,
      reason: 'in-flight-limit',
    });
    await eventually(() => held.length === 3);
    expect(await metricValue(registry, 'card_network_requests_in_flight', { network: 'sandbox' })).toBe(3);

    const first = held.shift()!;
    first.from.send(answerTo(first.request));
    await Promise.race(waiting);
    const fifth = connector!.exchange(paymentRequest(5));
    await eventually(() => held.length === 3);
    expect(held.map(({ request }) => stanOf(request)).sort()).toEqual(
      [1, 2, 3, 5].filter((stan) => stan !== stanOf(first.request)),
    );
    for (const { request, from } of held) from.send(answerTo(request));
    await Promise.all([...waiting, fifth]);
    const notSent = { network: 'sandbox', mti: '0200', outcome: 'not-sent', response_code: '' };
    expect(await metricValue(registry, 'card_network_requests_total', notSent)).toBe(1);
  });

  it('refuses with NotSentError when no connection is signed on', async () => {
    host.signOn = 'refuse';
    ({ connector } = connectorTo(host));
    await eventually(() => host.connections.length >= 2);

    await expect(connector.exchange(paymentRequest(1))).rejects.toMatchObject({
      constructor: NotSentError,
      reason: 'no-ready-connection',
      message: 'no connection to sandbox is signed on',
    });
    expect(host.connections.flatMap((connection) => connection.received).every((m) => m.mti === '0800')).toBe(true);
  });

  it('refuses with NotSentError a request that cannot be packed, naming the field and not its value', async () => {
    await ready({ connections: 1 });
    const request = paymentRequest(1);
    const badPan = '50609905800002174X9';
    const error = await connector!
      .exchange({ ...request, fields: new Map([...request.fields, [2, badPan]]) })
      .catch((e) => e);

    expect(error).toBeInstanceOf(NotSentError);
    expect(error).toMatchObject({ reason: 'unpackable' });
    expect(error.message).toContain('field 2 (primary account number)');
    expect(error.message).not.toContain(badPan);
  });

  it('refuses with NotSentError a second request with the STAN and RRN of one still waiting', async () => {
    holdRequests(host);
    await ready({ connections: 1, requestTimeoutMs: 100 });

    const first = connector!.exchange(paymentRequest(1, 'RRN000000001'));
    await expect(connector!.exchange(paymentRequest(1, 'RRN000000001'))).rejects.toMatchObject({ reason: 'duplicate' });
    await expect(first).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('matches 200 requests at once answered in any order, after random delays, on any connection', async () => {
    host.respond = (request, from) => {
      const on = Math.random() < 0.3 ? host.open[Math.floor(Math.random() * host.open.length)] : from;
      const code = stanOf(request) % 3 === 0 ? '51' : '00';
      setTimeout(() => on.send(answerTo(request, code)), Math.random() * 50);
    };
    const { registry } = await ready({ connections: 3, requestTimeoutMs: 2_000 });

    const stans = Array.from({ length: 200 }, (_, index) => index + 1);
    const amount = (stan: number) => String(stan * 100).padStart(12, '0');
    const answers = await Promise.all(
      stans.map((stan) => {
        const request = paymentRequest(stan);
        return connector!.exchange({ ...request, fields: new Map([...request.fields, [4, amount(stan)]]) });
      }),
    );

    answers.forEach((answer, index) => {
      const stan = stans[index];
      expect([stanOf(answer), answer.fields.get(37), answer.fields.get(4), answer.fields.get(39)]).toEqual([
        stan,
        paymentRequest(stan).fields.get(37),
        amount(stan),
        stan % 3 === 0 ? '51' : '00',
      ]);
    });
    const count = (code: string) =>
      metricValue(registry, 'card_network_requests_total', { mti: '0200', outcome: 'answered', response_code: code });
    expect([await count('00'), await count('51')]).toEqual([134, 66]);
    const latency = { network: 'sandbox', mti: '0200' };
    expect(
      await metricValue(
        registry,
        'card_network_request_duration_seconds',
        latency,
        'card_network_request_duration_seconds_count',
      ),
    ).toBe(200);
    expect(await metricValue(registry, 'card_network_requests_in_flight', { network: 'sandbox' })).toBe(0);
  });

  it('reports its connections by state, and none once closed', async () => {
    const { registry } = await ready({ connections: 3 });
    const connections = (state: string) =>
      metricValue(registry, 'card_network_connections', { network: 'sandbox', state });
    expect([await connections('ready'), await connections('not_ready')]).toEqual([3, 0]);

    host.signOn = 'refuse';
    host.open[0].close();
    await eventually(() => connector!.state().ready === 2);
    expect([await connections('ready'), await connections('not_ready')]).toEqual([2, 1]);

    await connector!.close();
    expect((await registry.getSingleMetric('card_network_connections')!.get()).values).toEqual([]);
  });

  it('lets the requests in flight end before it closes the connections', async () => {
    const held = holdRequests(host);
    await ready({ connections: 1 });

    const answer = connector!.exchange(paymentRequest(1));
    await eventually(() => held.length === 1);
    const closed = connector!.close();
    await expect(connector!.exchange(paymentRequest(2))).rejects.toMatchObject({ reason: 'closed' });
    expect(host.open).toHaveLength(1);

    held[0].from.send(answerTo(held[0].request));
    await expect(answer).resolves.toMatchObject({ mti: '0210' });
    await closed;
    await eventually(() => host.open.length === 0);
  });

  it('shares one registry between hosts, each labelled by its name', async () => {
    const registry = new Registry();
    const live = await FakeHost.listen();
    const sandbox = connectorTo(host, { registry, connections: 1 }).connector;
    const other = connectorTo(live, { registry, name: 'live', connections: 2 }).connector;
    try {
      await eventually(() => sandbox.state().ready === 1 && other.state().ready === 2);
      await sandbox.exchange(paymentRequest(1));
      const ready = (network: string) => metricValue(registry, 'card_network_connections', { network, state: 'ready' });
      expect([await ready('sandbox'), await ready('live')]).toEqual([1, 2]);
      const answered = { mti: '0200', outcome: 'answered', response_code: '00' };
      expect(await metricValue(registry, 'card_network_requests_total', { ...answered, network: 'sandbox' })).toBe(1);
      expect(await metricValue(registry, 'card_network_requests_total', { ...answered, network: 'live' })).toBe(0);
    } finally {
      await Promise.all([sandbox.close(), other.close()]);
      await live.stop();
    }
  });
});
