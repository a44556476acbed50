import { randomUUID } from 'node:crypto';

import { Topics } from '@payments/contracts';
import { eventually, KafkaCollector, testEnvironment } from '@payments/testing';

import { useApps } from './apps';
import { callGateway, createPartner, PartnerCredentials } from './partners';

jest.setTimeout(180_000);

// Kafka keeps earlier runs' events: references carry this run's id so events match this run only.
const run = randomUUID().slice(0, 8);

const call = callGateway;

describe('outlets, wallets and transfers through the gateway', () => {
  useApps(['outlet-service', 'checkout-gateway'], {
    'outlet-service': { PAYOUT_SETTLE_DELAY_MS: '200' },
  });
  let partner: PartnerCredentials;
  let other: PartnerCredentials;
  let live: PartnerCredentials;
  let events: KafkaCollector;

  beforeAll(async () => {
    events = await new KafkaCollector(testEnvironment().KAFKA_BROKERS!, Topics.partnerEvents.name).start();
    [partner, other, live] = [
      createPartner('Outlet Partner'),
      createPartner('Other Partner'),
      createPartner('Live Partner', ['--live']),
    ];
    // Onboarding reaches outlet-service over Kafka: until it lands, the business has no agent assignment.
    for (const each of [partner, other, live]) {
      await eventually(async () => ((await call(each, 'GET', '/outlets')).status === 200 ? true : undefined), 30_000);
    }
  });

  afterAll(async () => {
    await events?.stop();
  });

  const eventFor = (name: string, match: (data: Record<string, unknown>) => boolean) =>
    eventually(() =>
      events.messages
        .map(
          (message) => JSON.parse(message.value) as { payload: { event: string; eventData: Record<string, unknown> } },
        )
        .map((envelope) => envelope.payload)
        .find((payload) => payload.event === name && match(payload.eventData)),
    );

  it('creates an outlet and sends outlet.created mirroring the response', async () => {
    const response = await call(partner, 'POST', '/outlets', {
      accountName: 'Ikeja',
      externalReference: 'e2e-ikeja',
      address: 'Allen Ave',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: true, statusCode: 200 });
    const outlet = response.body.data;
    const event = await eventFor('outlet.created', (data) => data.outletId === outlet.outletId);
    expect(event.eventData).toEqual(outlet);
  });

  it.each([
    ['no accountName', {}, 'accountName is required'],
    ['an empty accountName', { accountName: '' }, 'accountName is required'],
    ['a numeric accountName', { accountName: 42 }, 'accountName is required'],
    ['201 ASCII characters', { accountName: 'x'.repeat(201) }, 'accountName cannot exceed 200 characters'],
    ['201 accented characters', { accountName: 'é'.repeat(201) }, 'accountName cannot exceed 200 characters'],
  ])('answers 422 for %s: "%s"', async (_case, body, message) => {
    const response = await call(partner, 'POST', '/outlets', body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      status: false,
      statusCode: 422,
      message,
      data: { code: 'VALIDATION_FAILED' },
    });
  });

  it('accepts 200 characters that take 400 bytes', async () => {
    const response = await call(partner, 'POST', '/outlets', { accountName: 'é'.repeat(200) });
    expect(response.status).toBe(200);
    expect((response.body.data as { depositWallet: { accountName: string } }).depositWallet.accountName).toBe(
      `${'é'.repeat(200)} (deposit)`,
    );
  });

  it('answers 50 concurrent creates with one externalReference with one outlet and 49 × 422', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(partner, 'POST', '/outlets', { accountName: `Race ${i}`, externalReference: 'e2e-race' }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    const refused = responses.filter((response) => response.status === 422);
    expect(refused).toHaveLength(49);
    expect(new Set(refused.map((response) => (response.body.data as { code: string }).code))).toEqual(
      new Set(['EXTERNAL_REFERENCE_DUPLICATE']),
    );
    const search = await call<{ meta: { total: number } }>(partner, 'GET', '/outlets?search=e2e-race');
    expect(search.body.data.meta.total).toBe(1);
  });

  it('answers a retried create with the same Idempotency-Key with the first outlet, and refuses the key with another body', async () => {
    const key = { 'Idempotency-Key': `outlet-${run}` };
    const first = await call<{ outletId: string }>(partner, 'POST', '/outlets', { accountName: 'Keyed' }, key);
    const again = await call<{ outletId: string }>(partner, 'POST', '/outlets', { accountName: 'Keyed' }, key);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.data).toEqual(first.body.data);
    const other = await call(partner, 'POST', '/outlets', { accountName: 'Keyed, renamed' }, key);
    expect([other.status, (other.body.data as { code: string }).code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const bad = await call(
      partner,
      'POST',
      '/outlets',
      { accountName: 'Keyed' },
      { 'Idempotency-Key': 'x'.repeat(256) },
    );
    expect(bad.status).toBe(422);
    await eventFor('outlet.created', (data) => data.outletId === first.body.data.outletId);
    const created = events.messages.filter(
      (message) => message.value.includes(first.body.data.outletId) && message.value.includes('outlet.created'),
    );
    expect(new Set(created.map((message) => (JSON.parse(message.value) as { eventId: string }).eventId)).size).toBe(1);
  });

  it('answers an unknown outlet and another business’s outlet with the same 404', async () => {
    const theirs = (await call<{ outletId: string }>(other, 'POST', '/outlets', { accountName: 'Theirs' })).body.data
      .outletId;
    const unknownId = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const unknown = await call(partner, 'GET', `/outlets/${unknownId}`);
    const foreign = await call(partner, 'GET', `/outlets/${theirs}`);
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(unknown.body).toEqual({
      status: false,
      statusCode: 404,
      message: `Outlet ${unknownId} not found`,
      data: { code: 'OUTLET_NOT_FOUND' },
    });
    expect(foreign.text.replace(theirs, 'ID')).toBe(unknown.text.replace(unknownId, 'ID'));
  });

  it('credits only the caller’s own accounts in the sandbox: another business’s number answers as an unknown one', async () => {
    type Outlet = { outletId: string; collectionWallet: { accountNumber: string; ledgerBalance: string } };
    const theirs = (await call<Outlet>(partner, 'POST', '/outlets', { accountName: 'Their Till' })).body.data;
    const theirNumber = theirs.collectionWallet.accountNumber;
    const unknownNumber = '0000000001';
    const credit = (accountNumber: string) =>
      call(other, 'POST', `/sandbox/virtual-accounts/${accountNumber}/credit`, {
        amount: '5000',
        sessionId: randomUUID(),
      });
    const [unknown, foreign] = [await credit(unknownNumber), await credit(theirNumber)];
    expect(unknown.body).toMatchObject({ statusCode: 404, data: { code: 'VIRTUAL_ACCOUNT_NOT_FOUND' } });
    expect(foreign.text.replace(theirNumber, 'N')).toBe(unknown.text.replace(unknownNumber, 'N'));
    const after = await call<Outlet>(partner, 'GET', `/outlets/${theirs.outletId}`);
    expect(after.body.data.collectionWallet.ledgerBalance).toBe('0');
  });

  it('paginates search within the caller’s business and bounds the page size', async () => {
    const page = await call<{ items: unknown[]; meta: { page: number; limit: number; total: number } }>(
      other,
      'GET',
      '/outlets?page=1&limit=100',
    );
    expect(page.status).toBe(200);
    expect(page.body.data.meta).toEqual({ page: 1, limit: 100, total: 1 });
    const tooBig = await call(other, 'GET', '/outlets?limit=101');
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.data).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'limit' }] });
  });

  it('refuses outlet routes without valid keys', async () => {
    const response = await call(null, 'GET', '/outlets');
    expect(response.status).toBe(401);
    expect(response.body.data).toEqual({ code: 'UNAUTHORIZED' });
  });

  describe('money', () => {
    let collection: { walletId: string; accountNumber: string };
    let deposit: { walletId: string; accountNumber: string };

    beforeAll(async () => {
      const outlet = (
        await call<{ collectionWallet: typeof collection; depositWallet: typeof deposit }>(
          partner,
          'POST',
          '/outlets',
          { accountName: 'Money' },
        )
      ).body.data;
      ({ collectionWallet: collection, depositWallet: deposit } = outlet);
    });

    it('funds a collection account through the sandbox rail and sends fundAccount.success', async () => {
      const credit = await call(partner, 'POST', `/sandbox/virtual-accounts/${collection.accountNumber}/credit`, {
        amount: '100000',
        senderName: 'Ada Obi',
        sessionId: `e2e-session-1-${run}`,
      });
      expect(credit.status).toBe(200);
      const again = await call(partner, 'POST', `/sandbox/virtual-accounts/${collection.accountNumber}/credit`, {
        amount: '100000',
        senderName: 'Ada Obi',
        sessionId: `e2e-session-1-${run}`,
      });
      expect(again.body.data).toEqual(credit.body.data);
      const event = await eventFor('fundAccount.success', (data) => data.sessionId === `e2e-session-1-${run}`);
      expect(event.eventData).toMatchObject({
        amount: '100000',
        transactionType: 'CREDIT',
        transactionStatus: 'SUCCESS',
      });
    });

    it('credits a retried transfer without a sessionId once when it carries the same Idempotency-Key', async () => {
      const outlet = (
        await call<{ outletId: string; collectionWallet: { accountNumber: string } }>(partner, 'POST', '/outlets', {
          accountName: 'Keyed credits',
        })
      ).body.data;
      const key = { 'Idempotency-Key': `credit-${run}` };
      const credit = () =>
        call(
          partner,
          'POST',
          `/sandbox/virtual-accounts/${outlet.collectionWallet.accountNumber}/credit`,
          { amount: '2500' },
          key,
        );
      const [first, retry] = [await credit(), await credit()];
      expect([first.status, retry.status]).toEqual([200, 200]);
      expect(retry.body.data).toEqual(first.body.data);
      const balance = (
        await call<{ collectionWallet: { ledgerBalance: string } }>(partner, 'GET', `/outlets/${outlet.outletId}`)
      ).body.data.collectionWallet.ledgerBalance;
      expect(balance).toBe('2475'); // ₦25 less the default 1% fee of a transfer in
    });

    it('refuses the sandbox rail to live keys', async () => {
      const response = await call(live, 'POST', `/sandbox/virtual-accounts/${collection.accountNumber}/credit`, {
        amount: '1',
      });
      expect(response.status).toBe(403);
      expect(response.body.data).toEqual({ code: 'SANDBOX_ONLY' });
    });

    it('transfers internally, idempotently on the reference', async () => {
      const body = {
        reference: `e2e-tr-1-${run}`,
        amount: '30000',
        sourceWalletId: collection.walletId,
        destinationWalletId: deposit.walletId,
      };
      const first = await call(partner, 'POST', '/transfer/internal', body);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ transactionStatus: 'SUCCESS', amount: '30000' });
      expect((await call(partner, 'POST', '/transfer/internal', body)).body).toEqual(first.body);
      const conflict = await call(partner, 'POST', '/transfer/internal', { ...body, amount: '30001' });
      expect([conflict.status, (conflict.body.data as { code: string }).code]).toEqual([422, 'REFERENCE_CONFLICT']);
      const tooMuch = await call(partner, 'POST', '/transfer/internal', {
        ...body,
        reference: `e2e-tr-2-${run}`,
        amount: '70001',
      });
      expect([tooMuch.status, (tooMuch.body.data as { code: string }).code]).toEqual([422, 'INSUFFICIENT_FUNDS']);
      await eventFor('internalTransfer.successful', (data) => data.transactionReference === `e2e-tr-1-${run}`);
    });

    it.each([['12.5'], ['-1'], ['0'], ['1e3'], ['+5'], [5]])('rejects the amount %j', async (amount) => {
      const response = await call(partner, 'POST', '/transfer/internal', {
        reference: `e2e-bad-amount-${run}`,
        amount,
        sourceWalletId: collection.walletId,
        destinationWalletId: deposit.walletId,
      });
      expect(response.status).toBe(422);
      expect(response.body.data).toMatchObject({ errors: [{ field: 'amount' }] });
    });

    it('pays out from the deposit wallet: held at once, posted when the rail settles', async () => {
      const payout = await call(partner, 'POST', '/transfer/bank', {
        reference: `e2e-po-1-${run}`,
        amount: '10000',
        sourceWalletId: deposit.walletId,
        bankCode: '058',
        accountNumber: '0690000031',
        accountName: 'Bola Ade',
      });
      expect(payout.status).toBe(200);
      expect(payout.body.data).toMatchObject({ transactionStatus: 'PROCESSING' });
      const event = await eventFor('bankTransfer.success', (data) => data.transactionReference === `e2e-po-1-${run}`);
      expect(event.eventData).toMatchObject({ transactionType: 'DEBIT', amount: '10000' });
      const outlets = await call<{
        items: { depositWallet: { walletId: string; ledgerBalance: string; availableBalance: string } }[];
      }>(partner, 'GET', '/outlets?search=Money');
      const wallet = outlets.body.data.items.find(
        (item) => item.depositWallet.walletId === deposit.walletId,
      )!.depositWallet;
      expect(wallet).toMatchObject({ ledgerBalance: '20000', availableBalance: '20000' });
    });
  });
});
