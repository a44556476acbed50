import { eventually, testEnvironment } from '@payments/testing';

import { useApps } from './apps';
import { callGateway, createCheckout, createPartner, onboardedPartner, PartnerCredentials } from './partners';

jest.setTimeout(180_000);

describe('checkouts paid by bank transfer and by QR wallet', () => {
  useApps(['checkout-gateway', 'outlet-service']);
  let partner: PartnerCredentials;

  const call = (method: string, path: string, body?: unknown) =>
    callGateway<Record<string, string>>(partner, method, path, body);
  const checkout = (methods: string[]) => createCheckout(partner, methods, '480000', 'Transfer Shop');
  const status = async (reference: string) => (await call('GET', `/payin/charge/requests/${reference}`)).body.data;

  beforeAll(async () => {
    partner = await onboardedPartner('Methods Partner');
  });

  it('assigns a dynamic account, refuses a wrong amount, and completes on the exact amount', async () => {
    const reference = await checkout(['pay-with-transfer', 'card']);
    const account = (await call('POST', `/checkout/${reference}/pay-with-transfer`)).body.data;
    expect(account).toMatchObject({
      accountNumber: expect.stringMatching(/^\d{10}$/),
      amount: '480000',
      bankName: 'Sandbox Bank',
    });
    expect((await call('POST', `/checkout/${reference}/pay-with-transfer`)).body.data.accountNumber).toBe(
      account.accountNumber,
    );

    const wrong = await call('POST', `/sandbox/virtual-accounts/${account.accountNumber}/credit`, { amount: '1000' });
    expect([wrong.status, wrong.body.data.code]).toEqual([422, 'INVALID_TRANSFER']);
    expect((await status(reference)).transactionStatus).toBe('PROCESSING');

    const paid = await call('POST', `/sandbox/virtual-accounts/${account.accountNumber}/credit`, {
      amount: '480000',
      senderName: 'Ada Obi',
    });
    expect(paid.status).toBe(200);
    await eventually(
      async () => ((await status(reference)).transactionStatus === 'SUCCESS' ? true : undefined),
      30_000,
    );
    expect((await status(reference)).usedMethod).toBe('pay-with-transfer');
    const again = await call('POST', `/sandbox/virtual-accounts/${account.accountNumber}/credit`, { amount: '480000' });
    expect([again.status, again.body.data.code]).toEqual([422, 'INVALID_TRANSFER']);
  });

  it('shows a QR code that the sandbox wallet pays, once', async () => {
    const reference = await checkout(['qr-wallet']);
    const qr = (await call('POST', `/checkout/${reference}/qr`)).body.data;
    expect(qr.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(qr.qrPayload).toContain(reference);
    const paid = await call('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload });
    expect(paid.body.data).toEqual({ reference, transactionStatus: 'SUCCESS' });
    expect(await status(reference)).toMatchObject({ transactionStatus: 'SUCCESS', usedMethod: 'qr-wallet' });
    const twice = await call('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload });
    expect([twice.status, twice.body.data.code]).toEqual([422, 'CHECKOUT_NOT_PAYABLE']);
  });

  it('sends checkout.success once for each, and credits the settlement wallet once', async () => {
    const { Client } = await import('pg');
    const db = new Client({ connectionString: testEnvironment().DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT payload::json->'payload'->'eventData'->>'transactionReference' AS reference, count(*)::int AS count
         FROM gateway.outbox WHERE payload::text LIKE '%checkout.success%' AND message_key = $1 GROUP BY 1`,
        [partner.businessId],
      );
      expect(rows.length).toBe(2);
      expect(rows.every((row) => row.count === 1)).toBe(true);
      const { rows: entries } = await db.query(
        `SELECT count(*)::int AS count FROM outlets.journal_entries WHERE business_id = $1 AND kind = 'checkout'`,
        [partner.businessId],
      );
      expect(entries[0].count).toBe(2);
    } finally {
      await db.end();
    }
    // The partner sees the two payments in its settlement wallet, each less its default 1% fee.
    const wallet = await call('GET', '/wallets/settlement');
    expect(wallet.status).toBe(200);
    expect(wallet.body.data).toMatchObject({
      type: 'settlement',
      ledgerBalance: '950400',
      availableBalance: '950400',
      accountNumber: expect.stringMatching(/^\d{10}$/),
    });
  });

  it('refuses a bank transfer for a checkout the QR wallet already paid, so no money is taken twice', async () => {
    const reference = await checkout(['pay-with-transfer', 'qr-wallet']);
    const account = (await call('POST', `/checkout/${reference}/pay-with-transfer`)).body.data;
    const qr = (await call('POST', `/checkout/${reference}/qr`)).body.data;
    expect((await call('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload })).status).toBe(200);
    const transfer = await call('POST', `/sandbox/virtual-accounts/${account.accountNumber}/credit`, {
      amount: '480000',
    });
    expect([transfer.status, transfer.body.data.code]).toEqual([422, 'INVALID_TRANSFER']);
    const { Client } = await import('pg');
    const db = new Client({ connectionString: testEnvironment().DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT count(*)::int AS count FROM outlets.journal_entries WHERE kind = 'checkout' AND reference = $1`,
        [reference],
      );
      expect(rows[0].count).toBe(1);
    } finally {
      await db.end();
    }
  });

  it('refuses every payment method to a live business: no account, code or charge that no rail knows', async () => {
    const live = createPartner('Live Methods Partner', ['--live']);
    const reference = await createCheckout(live, ['pay-with-transfer', 'qr-wallet', 'card'], '480000', 'Live Shop');
    const ask = async (method: string) => {
      const response = await callGateway(live, 'POST', `/checkout/${reference}/${method}`);
      return [response.status, response.body.data.code];
    };
    // outlet-service hears of the business over Kafka; until then it does not know it at all.
    await eventually(async () => ((await ask('pay-with-transfer'))[1] === 'SANDBOX_ONLY' ? true : undefined), 30_000);
    expect(await ask('pay-with-transfer')).toEqual([403, 'SANDBOX_ONLY']);
    expect(await ask('qr')).toEqual([403, 'SANDBOX_ONLY']);
    // card-processor does not run in this suite: the gateway refuses before asking it.
    const card = await callGateway(live, 'POST', `/checkout/${reference}/card-payment`, {
      cardNumber: '5060990000000000019',
      expiryDate: '12/30',
      cvv: '123',
    });
    expect([card.status, card.body.data.code]).toEqual([403, 'SANDBOX_ONLY']);
    const record = await callGateway(live, 'GET', `/payin/charge/requests/${reference}`);
    expect(record.body.data.transactionStatus).toBe('PROCESSING');
    // A refund of it is refused for the same reason, before what it refunds is looked at.
    const refund = await callGateway(
      live,
      'POST',
      '/refunds',
      { transactionReference: reference },
      { 'idempotency-key': 'live-refund-1' },
    );
    expect([refund.status, refund.body.data.code]).toEqual([403, 'SANDBOX_ONLY']);
  });

  it('refuses a method the checkout does not allow', async () => {
    const reference = await checkout(['card']);
    const response = await call('POST', `/checkout/${reference}/qr`);
    expect([response.status, response.body.data.code]).toEqual([422, 'CHECKOUT_NOT_PAYABLE']);
  });
});
