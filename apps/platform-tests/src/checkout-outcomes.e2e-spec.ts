import { eventually, queryTestDatabase } from '@payments/testing';

import { useApps } from './apps';
import { callGateway, createCheckout, decideOnBankPage, onboardedPartner, PartnerCredentials } from './partners';

jest.setTimeout(180_000);

type Data = Record<string, string> & { code?: string };

/**
 * One authority decides how a checkout ends: once it ended, no other payment is booked on it,
 * and money a card captured anyway is kept aside for a refund, never lost.
 */
describe('how a checkout ends when payments race', () => {
  useApps(['checkout-gateway', 'card-processor', 'outlet-service'], {
    'checkout-gateway': { CHECKOUT_EXPIRY_POLL_MS: '200' },
  });
  let partner: PartnerCredentials;

  const call = (method: string, path: string, body?: unknown) => callGateway<Data>(partner, method, path, body);
  const checkout = (methods: string[]) => createCheckout(partner, methods, '310000', 'Race Shop');
  const record = async (reference: string) => (await call('GET', `/payin/charge/requests/${reference}`)).body.data;
  const transferAccount = async (reference: string) =>
    (await call('POST', `/checkout/${reference}/pay-with-transfer`)).body.data.accountNumber;
  const payCard = (reference: string, cardNumber: string) =>
    call('POST', `/checkout/${reference}/card-payment`, { cardNumber, expiryDate: '12/30', cvv: '123' });
  const credit = (accountNumber: string) =>
    call('POST', `/sandbox/virtual-accounts/${accountNumber}/credit`, { amount: '310000' });
  const settlementBalance = async () => (await call('GET', '/wallets/settlement')).body.data.ledgerBalance;
  const checkoutEntries = async (reference: string) =>
    (
      await queryTestDatabase<{ count: number }>(
        `SELECT count(*)::int AS count FROM outlets.journal_entries WHERE kind = 'checkout' AND reference = $1`,
        [reference],
      )
    )[0].count;
  const chargeStatus = async (reference: string) =>
    (
      await queryTestDatabase<{ status: string }>(
        `SELECT status FROM card_processor.card_charges WHERE checkout_reference = $1`,
        [reference],
      )
    )[0]?.status;

  beforeAll(async () => {
    partner = await onboardedPartner('Race Partner');
  });

  it('refuses a transfer to a checkout that ended FAILED when its card was declined, and books nothing', async () => {
    const reference = await checkout(['card', 'pay-with-transfer']);
    const account = await transferAccount(reference);
    const declined = await payCard(reference, '4000000000000002');
    expect(declined.body.data).toMatchObject({ transactionStatus: 'FAILED' });
    expect((await record(reference)).transactionStatus).toBe('FAILED');
    const before = await settlementBalance();

    const transfer = await credit(account);
    expect([transfer.status, transfer.body.data.code]).toEqual([422, 'INVALID_TRANSFER']);
    expect(await settlementBalance()).toBe(before);
    expect(await checkoutEntries(reference)).toBe(0);
    expect((await record(reference)).transactionStatus).toBe('FAILED');
  });

  it('refuses a transfer once the checkout expired on the gateway clock, even while the bank still takes payments', async () => {
    const reference = await checkout(['pay-with-transfer']);
    const account = await transferAccount(reference);
    // The gateway's clock runs ahead of outlet-service's: only the gateway sees the checkout expired.
    await queryTestDatabase(
      `UPDATE gateway.checkouts SET expires_at = now() - interval '1 second' WHERE reference = $1`,
      [reference],
    );
    await eventually(async () => ((await record(reference)).transactionStatus === 'FAILED' ? true : undefined), 30_000);

    const transfer = await credit(account);
    expect([transfer.status, transfer.body.data.code]).toEqual([422, 'INVALID_TRANSFER']);
    expect(await checkoutEntries(reference)).toBe(0);
    expect((await record(reference)).transactionStatus).toBe('FAILED');
  });

  it('refuses the last verification step once a transfer has paid the checkout, so the card is never captured', async () => {
    const reference = await checkout(['card', 'pay-with-transfer']);
    const account = await transferAccount(reference);
    expect((await payCard(reference, '5060990000000000035')).body.data.nextAction).toBe('otp');
    expect((await credit(account)).status).toBe(200);

    const otp = await call('POST', `/checkout/${reference}/card-authorization`, { otp: '123456' });
    expect([otp.status, otp.body.data.code]).toEqual([422, 'CHECKOUT_NOT_PAYABLE']);
    expect(await chargeStatus(reference)).toBe('PROCESSING');
    await eventually(
      async () => ((await record(reference)).transactionStatus === 'SUCCESS' ? true : undefined),
      30_000,
    );
    expect(await record(reference)).toMatchObject({ usedMethod: 'pay-with-transfer' });
    expect(await checkoutEntries(reference)).toBe(1);
  });

  it('refuses 3-D Secure approval once the checkout has ended', async () => {
    const reference = await checkout(['card', 'pay-with-transfer']);
    const account = await transferAccount(reference);
    const started = await payCard(reference, '4000000000003006');
    expect(started.body.data.nextAction).toBe('3ds');
    expect((await credit(account)).status).toBe(200);

    const bank = await decideOnBankPage(started.body.data.redirectUrl, 'approve');
    expect(bank.status).toBe(303);
    expect(await chargeStatus(reference)).toBe('PROCESSING');
    expect(await checkoutEntries(reference)).toBe(1);
  });

  it('pays by QR wallet and ends the checkout as one outcome the expirer cannot undo', async () => {
    const reference = await checkout(['qr-wallet']);
    const qr = (await call('POST', `/checkout/${reference}/qr`)).body.data;
    expect((await call('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload })).status).toBe(200);
    await queryTestDatabase(
      `UPDATE gateway.checkouts SET expires_at = now() - interval '1 second' WHERE reference = $1`,
      [reference],
    );
    // Give the expirer several rounds: the booked payment must keep the checkout SUCCESS.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await record(reference)).toMatchObject({ transactionStatus: 'SUCCESS', usedMethod: 'qr-wallet' });
    expect(await checkoutEntries(reference)).toBe(1);
  });
});
