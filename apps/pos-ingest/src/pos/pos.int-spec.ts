import { randomBytes } from 'node:crypto';

import { Topics } from '@payments/contracts';
import { Sealer } from '@payments/platform-crypto';
import { KafkaProducer } from '@payments/platform-kafka';
import { eventually, KafkaCollector, PrivateBroker, readDocs, testEnvironment } from '@payments/testing';
import fc from 'fast-check';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

import { approvedCard, encrypt, payload, PosIngestFixture } from '../testing/pos-ingest.fixture';
import { TransactionReferences } from './transaction-reference';

jest.setTimeout(120_000);

describe('POST /pos', () => {
  const fixture = new PosIngestFixture();
  let terminal: { serialNumber: string; posKey: string; businessId: string };
  let topic: KafkaCollector;

  beforeAll(async () => {
    await fixture.start();
    terminal = await fixture.terminal();
    topic = await new KafkaCollector(testEnvironment().KAFKA_BROKERS!, Topics.posTransactions.name).start();
  });

  afterAll(async () => {
    await topic.stop();
    await fixture.close();
  });

  it('accepts a valid submission after Kafka has it, with the card sealed and the PAN masked', async () => {
    const submitted = payload();
    const response = await fixture.submit(terminal.serialNumber, encrypt(submitted, terminal.posKey));
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toEqual({ reference: expect.stringMatching(/^[0-9A-Z]{26}$/), transactionStatus: 'PROCESSING' });

    const message = await eventually(() =>
      topic.messages.find((candidate) => candidate.value.includes(data.reference)),
    );
    expect(message.key).toBe(terminal.serialNumber);
    for (const secret of [approvedCard, submitted.track2Data, submitted.iccData]) {
      expect(message.value).not.toContain(secret);
    }
    const event = JSON.parse(message.value);
    expect(event.payload).toMatchObject({
      reference: data.reference,
      maskedPan: '506146*********3210',
      amount: '150000',
      mode: 'test',
    });
    const card = JSON.parse(new Sealer(fixture.cardKey).open(event.payload.sealedCard, data.reference));
    expect(card).toEqual({
      pan: approvedCard,
      pinBlock: 'null',
      track2Data: submitted.track2Data,
      iccData: submitted.iccData,
      cardExpiryDate: '2812',
    });
  });

  it('answers twins arriving together with one reference and one publish, and a second purchase with another', async () => {
    const submitted = payload();
    const [first, ...again] = await Promise.all(
      Array.from({ length: 5 }, () => fixture.submit(terminal.serialNumber, encrypt(submitted, terminal.posKey))),
    );
    const reference = first.json().data.reference;
    expect(again.map((response) => response.json().data.reference)).toEqual([
      reference,
      reference,
      reference,
      reference,
    ]);
    await eventually(() => topic.messages.find((candidate) => candidate.value.includes(reference)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(topic.messages.filter((candidate) => candidate.value.includes(reference))).toHaveLength(1);
    // The same card again at the same till: the chip's counter and cryptogram make it a new purchase.
    const secondPurchase = await fixture.submit(
      terminal.serialNumber,
      encrypt({ ...submitted, iccData: `${submitted.iccData}01` }, terminal.posKey),
    );
    expect(secondPurchase.json().data.reference).not.toBe(reference);
  });

  it('derives the reference from the transaction: the same whatever the instance, its cache, or the terminal of the business', async () => {
    const submitted = encrypt(payload(), terminal.posKey);
    const reference = (await fixture.submit(terminal.serialNumber, submitted)).json().data.reference;
    // A captured request replayed later, by an instance with nothing in memory (as after 24 hours and a restart)...
    const later = fixture.sibling();
    await later.start();
    try {
      expect((await later.submit(terminal.serialNumber, submitted)).json().data).toEqual({
        reference,
        transactionStatus: 'PROCESSING',
      });
      // ...or under another terminal of the same business: the serial number travels unauthenticated.
      const otherTerminal = await fixture.anotherTerminal(terminal.businessId);
      expect((await later.submit(otherTerminal, submitted)).json().data.reference).toBe(reference);
    } finally {
      await later.close();
    }
    // Another business's terminal cannot decrypt it, and its own transactions have their own references.
    const stranger = await fixture.terminal(terminal.posKey);
    expect((await fixture.submit(stranger.serialNumber, submitted)).json().data.reference).not.toBe(reference);
  });

  it('touches no database per submission once the terminal is cached, but once per rate limit grant', async () => {
    expect((await fixture.submit(terminal.serialNumber, encrypt(payload(), terminal.posKey))).statusCode).toBe(200);
    // Every query and connection of the app goes through its pg pool: watch the pool itself.
    const pool = (fixture.dataSource.driver as PostgresDriver).master as Pool;
    const connect = jest.spyOn(pool, 'connect');
    const query = jest.spyOn(pool, 'query');
    try {
      for (let i = 0; i < 20; i += 1) {
        expect((await fixture.submit(terminal.serialNumber, encrypt(payload(), terminal.posKey))).statusCode).toBe(200);
      }
      // A grant covers 100 submissions: 20 may meet the end of one at most.
      expect(connect.mock.calls.length).toBeLessThanOrEqual(1);
      expect(query).not.toHaveBeenCalled();
      // The spies do see the app's queries: a terminal not yet cached is read through them.
      await fixture.submit(await fixture.anotherTerminal(terminal.businessId), encrypt(payload(), terminal.posKey));
      expect(connect.mock.calls.length + query.mock.calls.length).toBeGreaterThan(0);
    } finally {
      connect.mockRestore();
      query.mockRestore();
    }
  });

  it('keeps twins apart from distinct transactions when many arrive together', async () => {
    // Each pair of twins shares one reference and every distinct transaction gets its own. A twin
    // arriving after its first was published is published again under the same reference, which
    // card-processor applies once: no reference is ever a second transaction.
    const distinct = Array.from({ length: 30 }, () => payload());
    const bodies = [...distinct, ...distinct.slice().reverse()].map((submitted) => encrypt(submitted, terminal.posKey));
    const responses = await Promise.all(bodies.map((data) => fixture.submit(terminal.serialNumber, data)));
    const references = responses.map((response) => response.json().data.reference as string);
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    expect(references.slice(30)).toEqual(references.slice(0, 30).reverse());
    expect(new Set(references).size).toBe(30);
    await eventually(() =>
      references.every((reference) => topic.messages.some((message) => message.value.includes(reference)))
        ? true
        : undefined,
    );
    const published = topic.messages
      .map((message) => JSON.parse(message.value).payload)
      .filter((event) => references.includes(event.reference));
    const sequenceOf = new Map(distinct.map((submitted, index) => [references[index], submitted.sequenceNumber]));
    expect(published.every((event) => event.sequenceNumber === sequenceOf.get(event.reference))).toBe(true);
  });

  it('answers an unknown serial number exactly as data that does not decrypt, so serials cannot be enumerated', async () => {
    const unknown = await fixture.submit('SN-NOT-REGISTERED', encrypt(payload(), terminal.posKey));
    const undecryptable = await fixture.submit(terminal.serialNumber, encrypt(payload(), 'a-different-key!'));
    expect(`${unknown.statusCode} ${unknown.body}`).toBe(`${undecryptable.statusCode} ${undecryptable.body}`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data).toEqual({ code: 'INVALID_PAYLOAD' });
  });

  it("refuses an address that sent too many failures, without spending the terminal's quota", async () => {
    const limited = fixture.sibling();
    await limited.start({ RATE_LIMIT_TERMINAL: '5/600s', RATE_LIMIT_POS_FAILURES: '8/600s' });
    const own = await limited.terminal();
    // An attacker's /64, each submission from another address in it: they count as one address.
    const attackerNetwork = `2001:db8:${randomBytes(4)
      .toString('hex')
      .replace(/(.{4})/, '$1:')}`;
    try {
      const flood = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          limited.submit(own.serialNumber, encrypt(payload(), 'a-different-key!'), `${attackerNetwork}::${i + 1}`),
        ),
      );
      const statuses = flood.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([...Array(8).fill(400), ...Array(4).fill(429)]);
      const refused = flood.find((response) => response.statusCode === 429)!;
      expect(refused.json().data).toMatchObject({ code: 'RATE_LIMITED' });
      expect(refused.headers['ratelimit-policy']).toBe('"pos-failures";q=8;w=600');

      const accepted = await limited.submit(own.serialNumber, encrypt(payload(), own.posKey), '192.0.2.10');
      expect(accepted.statusCode).toBe(200);
      expect(accepted.headers.ratelimit).toMatch(/^"terminal";r=4;t=\d+$/);
    } finally {
      await limited.close();
    }
  });

  it("refuses a live business's terminal with 403 SANDBOX_ONLY and publishes nothing", async () => {
    const live = await fixture.terminal('LiveKey123456789', 'live');
    const send = jest.spyOn(fixture.app.get(KafkaProducer), 'send');
    try {
      const response = await fixture.submit(live.serialNumber, encrypt(payload(), live.posKey));
      expect([response.statusCode, response.json().data]).toEqual([403, { code: 'SANDBOX_ONLY' }]);
      expect(send).not.toHaveBeenCalled();
    } finally {
      send.mockRestore();
    }
  });

  it('answers every decryption, padding and JSON failure with one identical 400', async () => {
    const valid = encrypt(payload(), terminal.posKey);
    const block = Buffer.from(valid, 'base64');
    const badPadding = Buffer.from(block);
    badPadding[badPadding.length - 1] ^= 0x01;
    const bodies = await Promise.all(
      [
        'not base64 at all!',
        `${valid.slice(0, -2)}`,
        Buffer.alloc(15).toString('base64'),
        badPadding.toString('base64'),
        encrypt(payload(), 'a-different-key!'),
        encrypt('["an","array"]', terminal.posKey),
        encrypt('{"truncated": ', terminal.posKey),
        Buffer.from([0xff, 0xfe]).toString('base64'),
      ].map(async (data) => {
        const response = await fixture.submit(terminal.serialNumber, data);
        return `${response.statusCode} ${response.body}`;
      }),
    );
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toMatch(/^400 .*"code":"INVALID_PAYLOAD"/);
  });

  it('counts submissions by outcome and decryption failures by reason, and reports publishes in flight against the limit', async () => {
    const series = {
      accepted: 'pos_submissions_total{outcome="accepted",service="pos-ingest"}',
      unknown: 'pos_submissions_total{outcome="terminal_not_found",service="pos-ingest"}',
      undecryptable: 'pos_submissions_total{outcome="undecryptable",service="pos-ingest"}',
      badPadding: 'pos_decrypt_failures_total{reason="bad_padding",service="pos-ingest"}',
      published: 'pos_publish_duration_seconds_count{service="pos-ingest"}',
    };
    const read = async () =>
      Object.fromEntries(
        await Promise.all(Object.entries(series).map(async ([name, line]) => [name, await fixture.metric(line)])),
      ) as Record<keyof typeof series, number>;
    const before = await read();
    expect((await fixture.submit(terminal.serialNumber, encrypt(payload(), terminal.posKey))).statusCode).toBe(200);
    expect((await fixture.submit(terminal.serialNumber, encrypt(payload(), 'a-different-key!'))).statusCode).toBe(400);
    expect((await fixture.submit('SN-NOT-REGISTERED', encrypt(payload(), terminal.posKey))).statusCode).toBe(400);
    const after = await read();
    expect(
      Object.fromEntries(
        Object.keys(series).map((name) => [
          name,
          after[name as keyof typeof series] - before[name as keyof typeof series],
        ]),
      ),
    ).toEqual({
      accepted: 1,
      unknown: 1,
      undecryptable: 1,
      badPadding: 1,
      published: 1,
    });
    expect(await fixture.metric('pos_in_flight_limit{service="pos-ingest"}')).toBe(256);
    expect(await fixture.metric('pos_in_flight{service="pos-ingest"}')).toBe(0);
  });

  it('answers bad fields with 422 naming each, never echoing values', async () => {
    const { pan: _pan, ...withoutPan } = payload();
    const cases: [Record<string, unknown>, string[]][] = [
      [withoutPan, ['pan']],
      [{ ...payload(), pan: '5061460410120223211' }, ['pan']],
      [{ ...payload(), cardExpiryDate: '28/12', amount: '12.50' }, ['amount', 'cardExpiryDate']],
      [{ ...payload(), amount: 150000 }, ['amount']],
      [{ ...payload(), pinBlock: null }, ['pinBlock']],
    ];
    for (const [body, fields] of cases) {
      const response = await fixture.submit(terminal.serialNumber, encrypt(body, terminal.posKey));
      expect(response.statusCode).toBe(422);
      expect(
        response
          .json()
          .data.errors.map((error: { field: string }) => error.field)
          .sort(),
      ).toEqual(fields);
      expect(response.body).not.toContain('5061460410120223211');
      expect(response.body).not.toContain('28/12');
    }
  });

  it('refuses a NUL character in the serial number or in any payload field with 422', async () => {
    const inSerial = await fixture.submit(`${terminal.serialNumber}\u0000`, encrypt(payload(), terminal.posKey));
    expect([inSerial.statusCode, inSerial.json().data.errors]).toEqual([
      422,
      [{ field: 'serialNumber', messages: ['serialNumber must not contain NUL characters'] }],
    ]);
    const inPayload = await fixture.submit(
      terminal.serialNumber,
      encrypt({ ...payload(), cardHolderName: 'ADA\u0000OBI' }, terminal.posKey),
    );
    expect(inPayload.statusCode).toBe(422);
    expect(inPayload.json().data.errors.map((error: { field: string }) => error.field)).toEqual(['cardHolderName']);
  });

  it('answers a malformed request as every route does: envelope, code, request id', async () => {
    const send = (body: string, contentType = 'application/json') =>
      fixture.app.inject({
        method: 'POST',
        url: '/pos',
        payload: body,
        headers: { 'content-type': contentType, 'x-request-id': 'pos-trace-7' },
      });
    const answers = {
      empty: await send('{}'),
      array: await send('[1, 2]'),
      numbers: await send(JSON.stringify({ serialNumber: 7, data: 8 })),
      notJson: await send('{"serialNumber": '),
      xml: await send('<pos/>', 'application/xml'),
      tooLarge: await send(JSON.stringify({ serialNumber: terminal.serialNumber, data: 'A'.repeat(70_000) })),
    };
    for (const response of Object.values(answers)) {
      expect(response.json()).toMatchObject({ status: false, statusCode: response.statusCode });
      expect(response.headers['x-request-id']).toBe('pos-trace-7');
    }
    const fields = (response: { json: () => { data: { errors: { field: string }[] } } }) =>
      response
        .json()
        .data.errors.map((error) => error.field)
        .sort();
    for (const response of [answers.empty, answers.array, answers.numbers]) {
      expect(response.statusCode).toBe(422);
      expect(fields(response)).toEqual(['data', 'serialNumber']);
    }
    expect([answers.notJson.statusCode, answers.notJson.json().data.code]).toEqual([400, 'MALFORMED_JSON']);
    expect([answers.xml.statusCode, answers.xml.json().data.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect([answers.tooLarge.statusCode, answers.tooLarge.json().data.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('answers 415 to a valid submission sent as text, as a form or without a Content-Type', async () => {
    const body = JSON.stringify({ serialNumber: terminal.serialNumber, data: encrypt(payload(), terminal.posKey) });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const response = await fixture.app.inject({
        method: 'POST',
        url: '/pos',
        payload: body,
        headers: { ...(type ? { 'content-type': type } : {}), 'x-request-id': 'pos-trace-415' },
      });
      expect([response.statusCode, response.json()]).toEqual([
        415,
        {
          status: false,
          statusCode: 415,
          message: 'A request body must be JSON, sent with Content-Type: application/json',
          data: { code: 'UNSUPPORTED_MEDIA_TYPE' },
        },
      ]);
      expect(response.headers['x-request-id']).toBe('pos-trace-415');
    }
  });

  it('is described in the API document with its request and answer schemas', async () => {
    const document = (await fixture.app.inject({ method: 'GET', url: '/docs-json' })).json();
    const operation = document.paths['/pos'].post;
    expect(operation.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PosSubmissionRequest',
    });
    expect(operation.responses['200'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/PosSubmissionResponse',
    });
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '403', '413', '415', '422', '429', '503']);
    expect(document.components.schemas.PosSubmissionRequest.required).toEqual(['serialNumber', 'data']);
  });

  it('answers the literal text "null" as a PIN block', async () => {
    const response = await fixture.submit(
      terminal.serialNumber,
      encrypt(payload({ pinBlock: 'null' }), terminal.posKey),
    );
    expect(response.statusCode).toBe(200);
  });

  it('never answers 500, whatever the bytes, key or payload', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from(bytes).toString('base64')),
          fc.string({ maxLength: 60 }),
          fc
            .tuple(fc.string({ maxLength: 40 }), fc.jsonValue())
            .map(([key, value]) => encrypt(JSON.stringify(value), key)),
          fc
            .dictionary(
              fc.constantFrom('pan', 'amount', 'cardExpiryDate', 'sequenceNumber', 'aid', 'foo'),
              fc.oneof(fc.string(), fc.integer()),
            )
            .map((value) => encrypt({ ...payload(), ...value }, terminal.posKey)),
        ),
        async (data) => {
          const response = await fixture.submit(terminal.serialNumber, data);
          return [200, 400, 422].includes(response.statusCode) && response.json().statusCode === response.statusCode;
        },
      ),
      { numRuns: 150 },
    );
  });

  it('serves the same terminals from a second instance, twins in both getting one reference', async () => {
    // Same configuration, same database: nothing held in one instance's memory is needed.
    const other = fixture.sibling();
    await other.start();
    try {
      const submitted = encrypt(payload(), terminal.posKey);
      const [a, b] = await Promise.all([
        fixture.submit(terminal.serialNumber, submitted),
        other.submit(terminal.serialNumber, submitted),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(a.json().data.reference).toBe(b.json().data.reference);
    } finally {
      await other.close();
    }
  });
});

describe('POST /pos with the broker down', () => {
  const broker = new PrivateBroker(19292);
  const fixture = new PosIngestFixture();

  beforeAll(async () => {
    await broker.start();
    await fixture.start({ KAFKA_BROKERS: broker.brokers, POS_PUBLISH_TIMEOUT_MS: '2000' });
  });

  afterAll(async () => {
    await fixture.close();
    await broker.destroy();
  });

  it('answers 503 and accepts nothing, then accepts the retry once the broker is back as the same transaction', async () => {
    const terminal = await fixture.terminal();
    const submitted = payload();
    const data = encrypt(submitted, terminal.posKey);
    await broker.stop();
    const refused = await fixture.submit(terminal.serialNumber, data);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().data).toEqual({ code: 'SERVICE_UNAVAILABLE' });

    await broker.start();
    const accepted = await eventually(async () => {
      const response = await fixture.submit(terminal.serialNumber, data);
      return response.statusCode === 200 ? response : undefined;
    }, 60_000);
    // The retry is the same transaction, its reference derived from it: had the refused send
    // reached the broker after all, the processor would see one reference twice and apply it once.
    const reference = new TransactionReferences(fixture.referenceKey).of(terminal.businessId, submitted);
    expect(accepted.json().data).toEqual({ reference, transactionStatus: 'PROCESSING' });
    const topic = await new KafkaCollector(broker.brokers, Topics.posTransactions.name).start();
    try {
      const published = await eventually(() =>
        topic.messages.filter((message) => message.value.includes(reference)).at(0),
      );
      expect(JSON.parse(published.value).payload.reference).toBe(reference);
      expect(topic.messages.every((message) => JSON.parse(message.value).payload.reference === reference)).toBe(true);
    } finally {
      await topic.stop();
    }
  });
});

describe('the POS guide', () => {
  it('shows each encryption snippet exactly as tested', () => {
    const guide = readDocs('pos.md');
    for (const file of ['encrypt.mjs', 'encrypt.py', 'encrypt.php']) {
      expect(guide).toContain(readDocs('pos', file).trim());
    }
  });

  it('refuses a terminal over its quota with 429 RATE_LIMITED, and counts it', async () => {
    const limited = new PosIngestFixture();
    await limited.start({ RATE_LIMIT_TERMINAL: '3/600s' });
    try {
      const till = await limited.terminal();
      const answers = [];
      for (let i = 0; i < 4; i += 1) {
        answers.push(await limited.submit(till.serialNumber, encrypt(payload(), till.posKey)));
      }
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
      expect(answers[3].json()).toMatchObject({ statusCode: 429, data: { code: 'RATE_LIMITED' } });
      expect(answers[3].headers['retry-after']).toMatch(/^\d+$/);
      expect(answers[0].headers['ratelimit-policy']).toBe('"terminal";q=3;w=600');
      expect(await limited.metric('pos_submissions_total{outcome="rate_limited",service="pos-ingest"}')).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
