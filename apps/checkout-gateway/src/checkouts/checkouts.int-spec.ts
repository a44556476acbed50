import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  CheckoutClosing,
  CheckoutOutcome,
  EventEnvelope,
  OutletCommand,
  PartnerEventV1Payload,
} from '@payments/contracts';
import { PartnerCredentials } from '@payments/contracts';
import { startTestApp } from '@payments/testing';
import { DataSource } from 'typeorm';

import { gatewayApp } from '../app';
import { BusinessesService } from '../businesses/businesses.service';
import { OnboardingRepository } from '../businesses/onboarding.repository';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { CheckoutsService } from './checkouts.service';

describe('checkout transactions', () => {
  let app: NestFastifyApplication;
  let partner: PartnerCredentials;
  let other: PartnerCredentials;

  beforeAll(async () => {
    ({ app } = await startTestApp(
      { ...gatewayApp, kafkaConsumer: false },
      {
        CHECKOUT_URL: 'https://pay.example.ng/checkout',
        CHECKOUT_EXPIRY_POLL_MS: '600000',
        SERVICE_TIMEOUT_MS: '1500',
        // As in production: webhooks and callbacks go to public addresses only.
        WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'false',
      },
    ));
    partner = await app.get(BusinessesService).provision({ name: 'Checkout Ltd', mode: 'test', webhookUrl: null });
    other = await app.get(BusinessesService).provision({ name: 'Other Ltd', mode: 'test', webhookUrl: null });
    // No outlet-service runs here to confirm it: as if it had, so that a card payment reaches card-processor.
    await app.get(OnboardingRepository).confirm(partner.businessId, 'outlet-service');
  });

  afterAll(() => app.close());

  const create = (body: unknown, headers: Record<string, string> = {}, as = partner) =>
    app.inject({
      method: 'POST',
      url: '/payin/charge/requests',
      headers: { 'x-api-key': as.apiKey, 'x-api-secret': as.apiSecret, ...headers },
      payload: body as Record<string, unknown>,
    });
  const get = (reference: string, as = partner) =>
    app.inject({
      method: 'GET',
      url: `/payin/charge/requests/${reference}`,
      headers: { 'x-api-key': as.apiKey, 'x-api-secret': as.apiSecret },
    });
  const valid = {
    amount: '150000',
    accountName: 'Acme Store',
    paymentMethod: ['card', 'pay-with-transfer'],
    email: 'ada@example.com',
  };

  it('creates a checkout with a reference and a link carrying checkoutReference', async () => {
    const response = await create(valid);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.reference).toMatch(/^CHK-[0-9A-Z]{26}$/);
    expect(data.link).toBe(`https://pay.example.ng/checkout?checkoutReference=${data.reference}`);
    const record = (await get(data.reference)).json().data;
    expect(record).toMatchObject({
      reference: data.reference,
      amount: '150000',
      accountName: 'Acme Store',
      paymentMethod: ['card', 'pay-with-transfer'],
      usedMethod: null,
      transactionStatus: 'PROCESSING',
      maskedCard: null,
      returnUrl: null,
    });
    expect(Date.parse(record.expiresAt) - Date.parse(record.createdAt)).toBe(30 * 60 * 1000);
  });

  it.each([
    ['a decimal amount', { amount: '12.5' }, 'amount'],
    ['a negative amount', { amount: '-1' }, 'amount'],
    ['a zero amount', { amount: '0' }, 'amount'],
    ['an exponent', { amount: '1e3' }, 'amount'],
    ['a number', { amount: 150000 }, 'amount'],
    ['a leading plus', { amount: '+5' }, 'amount'],
    ['more than the maximum', { amount: '100000000001' }, 'amount'],
    ['no accountName', { accountName: undefined }, 'accountName'],
    ['an empty method list', { paymentMethod: [] }, 'paymentMethod'],
    ['an unknown method', { paymentMethod: ['crypto'] }, 'paymentMethod'],
    ['a repeated method', { paymentMethod: ['card', 'card'] }, 'paymentMethod'],
    ['a bad email', { email: 'not-an-email' }, 'email'],
    ['a non-http callback', { callBackUrl: 'ftp://x.example' }, 'callBackUrl'],
    ['a script return URL', { returnUrl: 'javascript:alert(1)' }, 'returnUrl'],
    // validator.js takes this host for a name; the URL parser (and so the hosted page) refuses it.
    ['a callback no URL parser reads', { callBackUrl: 'http://127.0.0.\ue9671:1/' }, 'callBackUrl'],
    ['a return URL no URL parser reads', { returnUrl: 'http://127.0.0.\ue9671:1/' }, 'returnUrl'],
    ['metadata that is not an object', { metadata: 'text' }, 'metadata'],
    ['metadata over 4 KB', { metadata: { blob: 'x'.repeat(5000) } }, 'metadata'],
  ])('refuses %s with 422 naming the field', async (_case, change, field) => {
    const response = await create({ ...valid, ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json().data.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('refuses a callBackUrl its events could never be sent to, as PUT /webhooks/endpoint refuses a URL', async () => {
    const live = await app.get(BusinessesService).provision({ name: 'Live Ltd', mode: 'live', webhookUrl: null });
    const refused = [
      [partner, 'http://127.0.0.1:8000/callback', 'resolves to a private, loopback'],
      [partner, 'http://localhost:8000/callback', 'resolves to a private, loopback'],
      [partner, 'http://[::ffff:a9fe:a9fe]/latest/meta-data', 'resolves to a private, loopback'],
      [live, 'http://merchant.example/callback', 'must use https'],
    ] as const;
    for (const [as, callBackUrl, why] of refused) {
      const response = await create({ ...valid, callBackUrl }, {}, as);
      expect([callBackUrl, response.statusCode, response.json().data.code]).toEqual([
        callBackUrl,
        422,
        'WEBHOOK_URL_NOT_ALLOWED',
      ]);
      expect(response.json().message).toContain(why);
    }
    // A name is checked when the callback is sent, not with a DNS query on this request's path.
    expect((await create({ ...valid, callBackUrl: 'https://merchant.example/callback' }, {}, live)).statusCode).toBe(
      200,
    );
  });

  describe('input no receiver or database could store faithfully', () => {
    const keyed = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      app.inject({
        method,
        url,
        headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret },
        ...(payload ? { payload } : {}),
      });
    const fields = (response: { json: () => { data: { errors?: { field: string }[] } } }) =>
      response.json().data.errors?.map((error) => error.field);

    it.each([
      ['a NUL in accountName', { accountName: 'Acme\u0000Store' }, 'accountName'],
      ['a NUL in a metadata value', { metadata: { note: 'a\u0000b' } }, 'metadata.note'],
      ['a NUL in a metadata key', { metadata: { 'a\u0000': 'b' } }, 'metadata'],
      ['a fractional number in metadata', { metadata: { rate: 1e-7 } }, 'metadata'],
      ['a decimal deep in metadata', { metadata: { items: [{ price: 12.5 }] } }, 'metadata'],
      ['a whole number too large to be exact in metadata', { metadata: { big: 2 ** 60 } }, 'metadata'],
    ])('refuses %s with 422 naming the field', async (_case, change, field) => {
      const response = await create({ ...valid, ...change });
      expect(response.statusCode).toBe(422);
      expect(fields(response)).toContain(field);
    });

    it('keeps whole numbers, strings and booleans in metadata exactly as sent', async () => {
      const metadata = { count: 3, below: -2, label: '1e-7', paid: false, nested: { list: [1, 'two'] } };
      const reference = (await create({ ...valid, metadata })).json().data.reference;
      expect((await get(reference)).json().data.metadata).toEqual(metadata);
    });

    it('refuses a NUL in a path parameter', async () => {
      const response = await keyed('GET', '/payin/charge/requests/CHK-%00');
      expect(response.statusCode).toBe(422);
      expect(fields(response)).toEqual(['reference']);
    });

    it.each([
      ['a page past any that can be served', '/outlets?page=100000000000', 'page'],
      ['an impossible calendar date', '/webhooks/deliveries?from=2025-02-30T00:00:00Z', 'from'],
      ['an impossible date without a time', '/webhooks/deliveries?to=2025-02-30', 'to'],
    ])('refuses %s with 422', async (_case, url, field) => {
      const response = await keyed('GET', url);
      expect(response.statusCode).toBe(422);
      expect(fields(response)).toEqual([field]);
    });

    it('refuses an impossible birthday before it reaches the card processor', async () => {
      const reference = (await create(valid)).json().data.reference;
      const response = await keyed('POST', `/checkout/${reference}/card-authorization`, { birthday: '1990-02-30' });
      expect(response.statusCode).toBe(422);
      expect(fields(response)).toEqual(['birthday']);
    });
  });

  it('returns the first answer to a retry with the same Idempotency-Key, and refuses the key for another body', async () => {
    const key = `idem-${Date.now()}`;
    const [first, second] = await Promise.all([
      create(valid, { 'idempotency-key': key }),
      create(valid, { 'idempotency-key': key }),
    ]);
    expect(second.json().data).toEqual(first.json().data);
    const [{ count }] = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS count FROM gateway.checkouts WHERE reference = $1`, [
        first.json().data.reference,
      ]);
    expect(count).toBe(1);
    const reused = await create({ ...valid, amount: '999' }, { 'idempotency-key': key });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().data).toEqual({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('answers another business’s reference as not found', async () => {
    const reference = (await create(valid)).json().data.reference;
    const response = await get(reference, other);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      status: false,
      statusCode: 404,
      message: `Transaction ${reference} not found`,
      data: { code: 'TRANSACTION_NOT_FOUND' },
    });
  });

  it('answers 503 PROCESSOR_UNAVAILABLE when the card processor does not answer in time', async () => {
    // No card-processor consumes card commands while the integration suites run.
    const reference = (await create(valid)).json().data.reference;
    const response = await app.inject({
      method: 'POST',
      url: `/checkout/${reference}/card-payment`,
      headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret },
      payload: { cardNumber: '5060990000000000019', expiryDate: '12/30', cvv: '123' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().data).toEqual({ code: 'PROCESSOR_UNAVAILABLE' });
    expect(response.body).not.toContain('5060990000000000019');
  });

  it('ends a checkout once when a command’s answer and the outcome event arrive together', async () => {
    const reference = (await create(valid)).json().data.reference;
    const checkouts = app.get(CheckoutsService);
    const known = await checkouts.get(partner.businessId, reference);
    const outcome: CheckoutOutcome = {
      businessId: partner.businessId,
      checkoutReference: reference,
      status: 'SUCCESS',
      method: 'card',
      paymentId: 'charge-1',
      maskedCard: '506099*********0019',
      comment: 'Paid by card',
      charge: { fee: '1500', commission: '0', netAmount: '148500' },
    };
    await Promise.all([
      checkouts.applyOutcome(outcome, known),
      checkouts.applyOutcome(outcome),
      checkouts.applyOutcome(outcome, known),
    ]);
    await checkouts.applyOutcome(outcome);
    expect((await get(reference)).json().data).toMatchObject({ transactionStatus: 'SUCCESS', usedMethod: 'card' });
    const events = (await app
      .get(DataSource)
      .query(`SELECT payload -> 'payload' ->> 'event' AS event FROM gateway.outbox WHERE payload::text LIKE $1`, [
        `%${reference}%`,
      ])) as { event: string }[];
    expect(events).toEqual([{ event: 'checkout.success' }]);
  });

  describe('at expiry, ending as the ledger decides', () => {
    /** outlet-service stands in as the ledger: it answers each closing with the outcome it holds. */
    const ledgerAnswers = (decide: (closing: CheckoutClosing) => Partial<CheckoutOutcome>) =>
      jest.spyOn(app.get(OutletServiceClient), 'send').mockImplementation(async (command: OutletCommand) => {
        if (command.type !== 'closeCheckouts') throw new Error(`unexpected ${command.type}`);
        return command.checkouts.map((closing) => ({
          ...closing,
          status: 'FAILED',
          method: null,
          paymentId: null,
          maskedCard: null,
          ...decide(closing),
        })) as never;
      });
    const expire = (reference: string) =>
      app
        .get(DataSource)
        .query(`UPDATE gateway.checkouts SET expires_at = now() - interval '1 second' WHERE reference = $1`, [
          reference,
        ]);
    const outcomeEvents = async (reference: string) =>
      (
        (await app
          .get(DataSource)
          .query(`SELECT payload FROM gateway.outbox WHERE payload::text LIKE $1`, [`%${reference}%`])) as {
          payload: EventEnvelope<PartnerEventV1Payload>;
        }[]
      ).map((row) => row.payload.payload);

    afterEach(() => jest.restoreAllMocks());

    it('ends an unpaid checkout FAILED and sends checkout.failed to the callback URL too', async () => {
      ledgerAnswers(() => ({}));
      const reference = (
        await create({ ...valid, callBackUrl: 'https://merchant.example/callback', metadata: { orderId: 'A-1' } })
      ).json().data.reference;
      await expire(reference);
      expect(await app.get(CheckoutsService).expireDue()).toBeGreaterThanOrEqual(1);
      expect((await get(reference)).json().data.transactionStatus).toBe('FAILED');
      expect(await outcomeEvents(reference)).toEqual([
        expect.objectContaining({
          event: 'checkout.failed',
          callbackUrl: 'https://merchant.example/callback',
          eventData: expect.objectContaining({
            transactionReference: reference,
            transactionStatus: 'FAILED',
            amount: '150000',
            metadata: { orderId: 'A-1' },
          }),
        }),
      ]);
    });

    it('ends a checkout SUCCESS when the ledger booked a transfer in its final second, and never says FAILED', async () => {
      ledgerAnswers(() => ({
        status: 'SUCCESS',
        method: 'pay-with-transfer',
        paymentId: 'rail-session-9',
        comment: 'Paid by bank transfer',
        charge: { fee: '1500', commission: '300', netAmount: '148500' },
      }));
      const reference = (await create(valid)).json().data.reference;
      await expire(reference);
      expect((await get(reference)).json().data).toMatchObject({
        transactionStatus: 'SUCCESS',
        usedMethod: 'pay-with-transfer',
      });
      await app.get(CheckoutsService).expireDue();
      // The figures the ledger booked, not ones made up for an outcome that reached the gateway by closing.
      expect(await outcomeEvents(reference)).toEqual([
        expect.objectContaining({
          event: 'checkout.success',
          eventData: expect.objectContaining({ amount: '150000', fee: '1500', commission: '300', netAmount: '148500' }),
        }),
      ]);
    });

    it('reads PROCESSING while the ledger cannot be asked, rather than guessing', async () => {
      jest.spyOn(app.get(OutletServiceClient), 'send').mockRejectedValue(new Error('no answer'));
      const reference = (await create(valid)).json().data.reference;
      await expire(reference);
      expect((await get(reference)).json().data.transactionStatus).toBe('PROCESSING');
      expect(await outcomeEvents(reference)).toEqual([]);
    });
  });
});
