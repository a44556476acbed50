import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startTestApp } from '@payments/testing';
import { DataSource } from 'typeorm';

import { gatewayApp } from '../app';
import { BusinessesService } from '../businesses/businesses.service';
import { RecordedTransaction, TransactionsRepository } from '../transactions/transactions.repository';
import { MembersRepository } from './members.repository';
import { MemberRole } from './roles';
import { Browser } from './testing/form-browser';
import { dashboardPageSize } from './transaction-filters';

const password = 'correct horse battery staple';

/** A collection of `businessId` as the transactions consumer records one. */
function collection(businessId: string, reference: string, createdAt: string, status = 'SUCCESS'): RecordedTransaction {
  return {
    businessId,
    eventId: `event-${businessId}-${reference}`,
    event: status === 'SUCCESS' ? 'fundAccount.success' : 'fundAccount.failed',
    kind: 'collection',
    reference,
    productType: 'collection',
    transactionType: 'CREDIT',
    transactionStatus: status as RecordedTransaction['transactionStatus'],
    amount: '150050',
    fee: '1500',
    commission: '50',
    netAmount: '148500',
    transactionAccount: '9000000001',
    outletId: null,
    sourceOutletId: null,
    sessionId: null,
    customerReference: null,
    comment: null,
    createdAt,
  };
}

describe('dashboard pages: money and webhooks', () => {
  let app: NestFastifyApplication;
  let acme: string;
  let other: string;
  let browser: Browser;
  let operations: Browser;
  const acmeReferences: string[] = [];

  beforeAll(async () => {
    ({ app } = await startTestApp({ ...gatewayApp, kafkaConsumer: false }, { SERVICE_TIMEOUT_MS: '1500' }));
    const businesses = app.get(BusinessesService);
    acme = (await businesses.provision({ name: 'Acme Ltd', mode: 'test', webhookUrl: null })).businessId;
    other = (await businesses.provision({ name: 'Other Ltd', mode: 'test', webhookUrl: null })).businessId;
    // One more than a page on 2026-11-20 and 21, one failed on the 22nd; the other business has
    // a reference Acme also uses and one of its own.
    const recorded: RecordedTransaction[] = [];
    for (let index = 0; index <= dashboardPageSize; index += 1) {
      const reference = `ACME-${String(index).padStart(3, '0')}`;
      acmeReferences.push(reference);
      const day = index % 2 === 0 ? '20' : '21';
      recorded.push(collection(acme, reference, `2026-11-${day}T10:${String(index).padStart(2, '0')}:00.000Z`));
    }
    recorded.push(collection(acme, 'ACME-FAILED', '2026-11-22T09:00:00.000Z', 'FAILED'));
    recorded.push(collection(other, 'ACME-000', '2026-11-22T11:00:00.000Z'));
    recorded.push(collection(other, 'OTHER-ONLY', '2026-11-22T12:00:00.000Z'));
    await app.get(TransactionsRepository).record(app.get(DataSource).manager, recorded);

    browser = await member('viewer', '198.51.100.7');
    operations = await member('operations', '198.51.100.8');
  });

  /** A member of Acme (or `businessId`) with `role`, signed up in a browser of their own. */
  async function member(role: MemberRole, address: string, businessId = acme): Promise<Browser> {
    const signedUp = new Browser(app, address);
    const token = await app
      .get(MembersRepository)
      .invite({ businessId, email: `${role}${Date.now()}@acme.example`, role, invitedBy: null });
    await signedUp.get(`/dashboard/sign-up?invitation=${token}`);
    const answer = await signedUp.post('/dashboard/sign-up', { invitation: token, password, confirmation: password });
    expect(answer.statusCode).toBe(303);
    return signedUp;
  }

  afterAll(() => app.close());

  const referencesIn = (html: string) =>
    [...html.matchAll(/<td><a href="\/dashboard\/transactions\/([^"?]+)\?/g)].map((m) => m[1]);

  it('lists the business’s own transactions, newest first, a page at a time', async () => {
    const first = await browser.get('/dashboard/transactions');
    expect(first.statusCode).toBe(200);
    const shown = referencesIn(first.body);
    expect(shown).toHaveLength(dashboardPageSize);
    expect(shown[0]).toBe('ACME-FAILED');
    expect(first.body).not.toContain('OTHER-ONLY');

    const older = /href="(\/dashboard\/transactions\?cursor=[^"]+)"/.exec(first.body);
    expect(older).not.toBeNull();
    const second = await browser.get(older![1].replaceAll('&amp;', '&'));
    const all = [...shown, ...referencesIn(second.body)];
    expect(all.sort()).toEqual([...acmeReferences, 'ACME-FAILED'].sort());
    expect(second.body).not.toMatch(/cursor=/);
  });

  it('filters as the API does, by status, reference and days', async () => {
    expect(referencesIn((await browser.get('/dashboard/transactions?status=FAILED')).body)).toEqual(['ACME-FAILED']);
    expect(referencesIn((await browser.get('/dashboard/transactions?reference=ACME-000')).body)).toEqual(['ACME-000']);
    const days = await browser.get('/dashboard/transactions?from=2026-11-21&to=2026-11-21&productType=collection');
    const onThe21st = acmeReferences.filter((_, index) => index % 2 === 1);
    expect(referencesIn(days.body).sort()).toEqual(onThe21st.sort());
    // The filters stay in the form.
    expect(days.body).toContain('value="2026-11-21"');
    expect(days.body).toContain('<option value="collection" selected>');
  });

  it('answers bad filters with the page and what is wrong, never a 500', async () => {
    for (const [query, says] of [
      ['from=2026-02-31', 'from must be a date'],
      ['from=yesterday', 'from must be a date'],
      ['status=STOLEN', 'status must be one of'],
      ['status=FAILED&status=SUCCESS', 'status must be given once'],
      ['from=2026-11-22&to=2026-11-20', 'from must be before to'],
      ['cursor=forged', 'cursor'],
      [`reference=${'x'.repeat(101)}`, 'reference must be shorter than or equal to 100 characters'],
    ]) {
      const answer = await browser.get(`/dashboard/transactions?${query}`);
      expect([query, answer.statusCode]).toEqual([query, 422]);
      expect(answer.body).toContain('role="alert"');
      expect(answer.body).toContain(says);
      expect(referencesIn(answer.body)).toEqual([]);
    }
  });

  it('shows a transaction of the business with its figures, and nothing of another business', async () => {
    const own = await browser.get('/dashboard/transactions/ACME-000?productType=collection');
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('₦1,500.50');
    expect(own.body).toContain('₦15.00');
    expect(own.body).toContain('₦1,485.00');
    // Acme's ACME-000 is shown, never the other business's transaction of that reference (its 22 Nov).
    expect(own.body).toContain('2026-11-20 10:00');

    for (const url of [
      '/dashboard/transactions/OTHER-ONLY',
      '/dashboard/transactions/OTHER-ONLY?productType=collection',
      '/dashboard/transactions/ACME-000?productType=stolen',
      '/dashboard/transactions/ACME-000?productType=refund',
    ]) {
      const answer = await browser.get(url);
      expect([url, answer.statusCode]).toEqual([url, 404]);
      expect(answer.body).toContain('Transaction not found');
      expect(answer.body).not.toContain('₦');
    }
  });

  it('exports the filtered days as CSV, of the business only', async () => {
    const csv = await browser.get('/dashboard/transactions/export?from=2026-11-20&to=2026-11-22');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="transactions-2026-11-20-2026-11-23.csv"');
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(1 + acmeReferences.length + 1);
    expect(csv.body).not.toContain('OTHER-ONLY');

    const backwards = await browser.get('/dashboard/transactions/export?from=2026-11-22&to=2026-11-01');
    expect(backwards.statusCode).toBe(422);
    expect(backwards.body).toContain('from must be before to');
  });

  it('sends a browser without a session to sign in', async () => {
    for (const url of [
      '/dashboard/transactions',
      '/dashboard/transactions/ACME-000',
      '/dashboard/transactions/export',
    ]) {
      const answer = await new Browser(app, '198.51.100.99').get(url);
      expect([url, answer.statusCode, answer.headers.location]).toEqual([url, 303, '/dashboard/sign-in']);
    }
  });

  it('gives an overview: what was collected today and this week, by product, and what failed', async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    await app
      .get(TransactionsRepository)
      .record(app.get(DataSource).manager, [
        { ...collection(acme, 'TODAY-1', at(now)), amount: '200000' },
        { ...collection(acme, 'TODAY-2', at(now)), kind: 'pos', productType: 'pos', amount: '50000' },
        { ...collection(acme, 'WEEK-1', at(now - 3 * 86_400_000)), amount: '100000' },
        collection(acme, 'TODAY-FAILED', at(now), 'FAILED'),
        { ...collection(other, 'OTHER-TODAY', at(now)), amount: '999900' },
      ]);
    const home = await browser.get('/dashboard');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Collected today (UTC): ₦2,500.00');
    expect(home.body).toContain('Collected in the last 7 days: ₦3,500.00');
    expect(home.body).toContain('<td>pos</td><td>1</td><td class="amount">₦500.00</td>');
    expect(home.body).toContain('TODAY-FAILED');
    expect(home.body).not.toContain('OTHER-TODAY');
    expect(home.body).not.toContain('₦9,999.00');
    // No outlet-service answers here: the balances are said to be unavailable, the rest is shown.
    expect(home.body).toContain('Balances cannot be read right now');
  });

  describe('refunds', () => {
    it('offers the refund form to operations and owners only, and only on a paid payment', async () => {
      const url = '/dashboard/transactions/ACME-000?productType=collection';
      expect((await operations.get(url)).body).not.toContain('Review the refund'); // a collection is not refunded
      await app
        .get(TransactionsRepository)
        .record(app.get(DataSource).manager, [
          { ...collection(acme, 'PAID-1', '2026-11-23T10:00:00.000Z'), kind: 'checkout', productType: 'checkout' },
        ]);
      expect((await operations.get('/dashboard/transactions/PAID-1')).body).toContain('Review the refund');
      expect((await browser.get('/dashboard/transactions/PAID-1')).body).not.toContain('Review the refund');
    });

    it('offers no refund form for a live business, whose refunds no rail pays yet', async () => {
      const live = (await app.get(BusinessesService).provision({ name: 'Live Ltd', mode: 'live', webhookUrl: null }))
        .businessId;
      await app
        .get(TransactionsRepository)
        .record(app.get(DataSource).manager, [
          { ...collection(live, 'LIVE-PAID', '2026-11-23T10:00:00.000Z'), kind: 'checkout', productType: 'checkout' },
        ]);
      const liveOperations = await member('operations', '198.51.100.10', live);
      const shown = await liveOperations.get('/dashboard/transactions/LIVE-PAID');
      expect(shown.statusCode).toBe(200);
      expect(shown.body).not.toContain('Review the refund');
    });

    it('reads the amount before anything else, and refuses what is not one', async () => {
      await operations.get('/dashboard/transactions/PAID-1');
      for (const amount of ['0', '-1', '1.234', 'lots', '1234,567', '1000000001']) {
        const refused = await operations.post('/dashboard/transactions/PAID-1/refund', { amount, reason: '' });
        expect([amount, refused.statusCode]).toEqual([amount, 422]);
        expect(refused.body).toContain('Give the amount in naira');
      }
      // A repeated amount is refused, never read as "all that is left".
      const repeated = await operations.post('/dashboard/transactions/PAID-1/refund', { amount: ['10', '20'] });
      expect(repeated.statusCode).toBe(422);
    });

    it("asks for no refund while the payment's refunds so far cannot be read", async () => {
      // No outlet-service runs here: the list of the payment's refunds times out, as when the ledger is down.
      await operations.get('/dashboard/transactions/PAID-1');
      const answer = await operations.post('/dashboard/transactions/PAID-1/refund', { amount: '10', reason: '' });
      expect(answer.statusCode).toBe(503);
      expect(answer.body).toContain('cannot be read right now, so no refund can be asked for');
      expect(answer.body).not.toContain('name="seal"');
    });

    it('refuses a viewer at each step, whatever they post', async () => {
      await browser.get('/dashboard/transactions/PAID-1');
      const review = await browser.post('/dashboard/transactions/PAID-1/refund', { amount: '10', reason: '' });
      expect(review.statusCode).toBe(403);
      const posted = { reference: 'PAID-1', amount: '1000', reason: '', key: 'dashboard-x', seal: 'x' };
      const confirm = await browser.post('/dashboard/refunds', posted);
      expect(confirm.statusCode).toBe(403);
      expect(confirm.body).toContain('Only owners and operations can refund');
    });

    it('makes nothing of a confirmation it did not show, or one posted from another site', async () => {
      await operations.get('/dashboard/transactions/PAID-1');
      const posted = {
        reference: 'PAID-1',
        amount: '1000',
        reason: '',
        key: `dashboard-${'0'.repeat(32)}`,
        seal: 'made-up',
      };
      const answer = await operations.post('/dashboard/refunds', posted);
      expect(answer.statusCode).toBe(422);
      expect(answer.body).toContain('not one shown to you');
      const forged = await operations.post('/dashboard/refunds', posted, { origin: 'https://evil.example' });
      expect([forged.statusCode, forged.headers.location]).toEqual([303, '/dashboard/transactions']);
    });
  });

  describe('webhooks', () => {
    it('shows the page, saying what cannot be read, while the webhook service does not answer', async () => {
      const answer = await browser.get('/dashboard/webhooks');
      expect(answer.statusCode).toBe(503);
      expect(answer.body).toContain('Endpoints cannot be read right now');
      expect(answer.body).toContain('role="alert"');
      const delivery = await browser.get('/dashboard/webhooks/deliveries/dlv_missing');
      expect(delivery.statusCode).toBe(503);
      expect(delivery.body).toContain('Delivery cannot be read now');
    });

    it('answers a bad filter with what is wrong', async () => {
      for (const query of ['status=lost', 'page=0', 'page=lots', 'status=failed&status=held']) {
        const answer = await browser.get(`/dashboard/webhooks?${query}`);
        expect([query, answer.statusCode]).toEqual([query, 422]);
        expect(answer.body).toContain('role="alert"');
      }
    });

    it('lets developers and owners only send a delivery again or a test event', async () => {
      await browser.get('/dashboard/webhooks');
      for (const url of ['/dashboard/webhooks/deliveries/dlv_1/replay', '/dashboard/webhooks/test']) {
        const answer = await browser.post(url, {});
        expect([url, answer.statusCode]).toEqual([url, 403]);
        expect(answer.body).toContain('Only developers and owners can send webhooks');
      }
      expect((await browser.get('/dashboard/webhooks')).body).not.toContain('Send a test event');
    });
  });
});
