import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PartnerCredentials } from '@payments/contracts';
import { startTestApp } from '@payments/testing';
import { DataSource } from 'typeorm';

import { gatewayApp } from '../app';
import { BusinessesService } from '../businesses/businesses.service';
import { TransactionsRepository } from './transactions.repository';

/** What a refused query answers: 422 VALIDATION_FAILED with each field named. */
const refusedFields = (...fields: string[]) => ({
  statusCode: 422,
  data: { code: 'VALIDATION_FAILED', errors: fields.map((field) => expect.objectContaining({ field })) },
});

describe('GET /transactions over HTTP', () => {
  let app: NestFastifyApplication;
  let partner: PartnerCredentials;

  beforeAll(async () => {
    // SERVICE_TIMEOUT_MS: no outlet-service runs here; a request that reached it would fail slowly.
    ({ app } = await startTestApp({ ...gatewayApp, kafkaConsumer: false }, { SERVICE_TIMEOUT_MS: '1500' }));
    partner = await app.get(BusinessesService).provision({ name: 'History Ltd', mode: 'test', webhookUrl: null });
    await app.get(TransactionsRepository).record(
      app.get(DataSource).manager,
      ['T-1', 'T-2', 'T-3'].map((reference, index) => ({
        businessId: partner.businessId,
        eventId: `event-${reference}`,
        event: 'fundAccount.success',
        kind: 'collection',
        reference,
        productType: 'collection',
        transactionType: 'CREDIT',
        transactionStatus: 'SUCCESS',
        amount: '100',
        fee: '0',
        commission: '0',
        netAmount: '100',
        transactionAccount: '9000000001',
        outletId: null,
        sourceOutletId: null,
        sessionId: null,
        customerReference: null,
        comment: null,
        createdAt: `2026-11-23T10:15:0${index}.000Z`,
      })),
    );
  });

  afterAll(() => app.close());

  const get = async (url: string) => {
    const response = await app.inject({
      method: 'GET',
      url,
      headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret },
    });
    return response.json() as { statusCode: number; data: Record<string, unknown> };
  };

  it('answers 422 naming the cursor for one it did not give, such as the MTIzNDU docs showed', async () => {
    const first = await get('/transactions?limit=2');
    expect(first).toMatchObject({ statusCode: 200, data: { items: [{ reference: 'T-3' }, { reference: 'T-2' }] } });
    const next = await get(`/transactions?limit=2&cursor=${String(first.data.nextCursor)}`);
    expect(next).toMatchObject({ statusCode: 200, data: { items: [{ reference: 'T-1' }], nextCursor: null } });

    for (const forged of ['MTIzNDU', 'Mg', 'MQ']) {
      expect(await get(`/transactions?cursor=${forged}`)).toMatchObject(refusedFields('cursor'));
    }
  });

  it('answers 422 naming page, or any query parameter it does not take, on the list, the export and a lookup', async () => {
    expect(await get('/transactions?page=2')).toMatchObject(refusedFields('page'));
    expect(await get('/transactions?limit=1&page=2&sort=asc')).toMatchObject(refusedFields('page', 'sort'));
    expect(await get('/transactions/export?from=2026-11-01&to=2026-12-01&cursor=x')).toMatchObject(
      refusedFields('cursor'),
    );
    expect(await get('/transactions/T-1?product=collection')).toMatchObject(refusedFields('product'));
    expect(await get('/transactions/T-1?productType=collection')).toMatchObject({ statusCode: 200 });
  });

  it('answers 422 naming productType for one that is no product type, as it does for a status', async () => {
    expect(await get('/transactions?productType=bogus')).toMatchObject(refusedFields('productType'));
    expect(await get('/transactions?status=bogus')).toMatchObject(refusedFields('status'));
    expect(await get('/transactions/T-1?productType=bogus')).toMatchObject(refusedFields('productType'));
    expect(await get('/transactions?productType=collection')).toMatchObject({ statusCode: 200 });
  });

  it('answers GET /refunds with a cursor it did not give as GET /transactions does, without asking outlet-service', async () => {
    // The form GET /refunds used to take: a refund id in base64.
    const refundId = Buffer.from('01JD3Q8ZK4T6W2V9XG5H7M1N3T').toString('base64url');
    for (const forged of [refundId, 'MTIzNDU']) {
      expect(await get(`/refunds?cursor=${forged}`)).toMatchObject(refusedFields('cursor'));
    }
  });

  it('answers GET /refunds with page, which it does not take, as GET /transactions does', async () => {
    expect(await get('/refunds?page=2')).toMatchObject(refusedFields('page'));
    expect(await get('/refunds/RFD-1?expand=true')).toMatchObject(refusedFields('expand'));
  });
});
