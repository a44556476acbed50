import { eventually, queryTestDatabase, testEnvironment } from '@payments/testing';

import { useApps } from './apps';
import {
  bankPage,
  callGateway,
  createCheckout,
  decideOnBankPage,
  onboardedPartner,
  PartnerCredentials,
} from './partners';

jest.setTimeout(180_000);

interface Answer {
  status: number;
  body: {
    status: boolean;
    message: string;
    data: Record<string, unknown> & {
      nextAction?: string;
      transactionStatus?: string;
      code?: string;
      redirectUrl?: string;
    };
  };
}

/** How a checkout paid by the card masked as `maskedCard` reads. */
const paidByCard = (maskedCard: string) => ({ transactionStatus: 'SUCCESS', usedMethod: 'card', maskedCard });

describe('card payments with step-up verification', () => {
  useApps(['checkout-gateway', 'card-processor', 'outlet-service']);
  let partner: PartnerCredentials;

  const call = (method: string, path: string, body?: unknown) =>
    callGateway<Answer['body']['data']>(partner, method, path, body);
  const checkout = (methods = ['card']) => createCheckout(partner, methods, '250000', 'Card Shop');
  const pay = (reference: string, cardNumber: string, extra: Record<string, string> = {}) =>
    call('POST', `/checkout/${reference}/card-payment`, { cardNumber, expiryDate: '12/30', cvv: '123', ...extra });
  const authorize = (reference: string, answer: Record<string, unknown>) =>
    call('POST', `/checkout/${reference}/card-authorization`, answer);
  const record = async (reference: string) => (await call('GET', `/payin/charge/requests/${reference}`)).body.data;

  beforeAll(async () => {
    // A card payment is booked in outlet-service, which learns of the partner over Kafka.
    partner = await onboardedPartner('Card Partner');
  });

  it('charges a card that needs no verification, and records the masked card on the checkout', async () => {
    const reference = await checkout();
    const answer = await pay(reference, '5060990000000000019');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ reference, transactionStatus: 'SUCCESS', nextAction: 'none' });
    expect(await record(reference)).toMatchObject(paidByCard('506099*********0019'));
  });

  it('asks for the PIN, then the OTP, and counts wrong OTPs', async () => {
    const reference = await checkout();
    expect((await pay(reference, '5060990000000000027')).body.data.nextAction).toBe('pin');
    expect((await authorize(reference, { pin: '1234' })).body.data.nextAction).toBe('otp');
    const wrong = await authorize(reference, { otp: '000000' });
    expect(wrong.body.data).toMatchObject({ transactionStatus: 'PROCESSING', nextAction: 'otp', attemptsLeft: 2 });
    expect((await authorize(reference, { otp: '123456' })).body.data).toMatchObject({
      transactionStatus: 'SUCCESS',
      nextAction: 'none',
    });
  });

  it('keeps the PIN step open after a wrong PIN, with the attempts left', async () => {
    const reference = await checkout();
    const first = await pay(reference, '5060990000000000027', { pin: '9999' });
    expect(first.body.data).toMatchObject({ transactionStatus: 'PROCESSING', nextAction: 'pin', attemptsLeft: 2 });
    const again = await authorize(reference, { pin: '0000' });
    expect(again.body.data).toMatchObject({ nextAction: 'pin', attemptsLeft: 1 });
    const otp = (await authorize(reference, { pin: '1234' })).body.data;
    expect(otp.nextAction).toBe('otp');
    // Each step has its own three tries: the OTP starts fresh, not as a wrong answer.
    expect(otp).not.toHaveProperty('attemptsLeft');
    expect(otp.message).not.toMatch(/^Wrong/);
  });

  it('accepts the PIN with the card, and fails the charge after three wrong OTPs', async () => {
    const reference = await checkout();
    expect((await pay(reference, '5060990000000000027', { pin: '1234' })).body.data.nextAction).toBe('otp');
    await authorize(reference, { otp: '111111' });
    await authorize(reference, { otp: '222222' });
    const third = await authorize(reference, { otp: '333333' });
    expect(third.body.data).toMatchObject({ transactionStatus: 'FAILED', nextAction: 'none' });
    expect((await record(reference)).transactionStatus).toBe('FAILED');
    const again = await pay(reference, '5060990000000000019');
    expect([again.status, again.body.data.code]).toEqual([422, 'CHECKOUT_NOT_PAYABLE']);
  });

  it.each([
    ['birthday', '5060990000000000068', { birthday: '1990-05-17' }],
    ['phone', '5060990000000000076', { phone: '08031234567' }],
    [
      'avs',
      '4000000000001000',
      { address: { line1: '1 Allen Avenue', city: 'Ikeja', state: 'Lagos', postalCode: '100001', country: 'NG' } },
    ],
    ['otp', '5060990000000000035', { otp: '123456' }],
  ])('completes the %s step', async (step, card, answer) => {
    const reference = await checkout();
    const first = await pay(reference, card);
    expect(first.body.data.nextAction).toBe(step);
    if (step === 'avs') expect(first.body.data.fields).toEqual(['line1', 'city', 'state', 'postalCode', 'country']);
    expect((await authorize(reference, answer)).body.data.transactionStatus).toBe('SUCCESS');
  });

  it('sends 3-D Secure cards to the sandbox bank page, whose approval completes the charge', async () => {
    const reference = await checkout();
    const first = await pay(reference, '4000000000003006');
    expect(first.body.data.nextAction).toBe('3ds');
    const redirectUrl = String(first.body.data.redirectUrl);
    expect(redirectUrl).toMatch(/\/sandbox\/3ds\//);
    const acs = await fetch(bankPage(redirectUrl));
    expect(await acs.text()).toContain('Approve payment');
    const approved = await decideOnBankPage(redirectUrl, 'approve');
    // The bank sends the customer back to the hosted page, which shows the outcome.
    expect(approved.status).toBe(303);
    expect(new URL(approved.headers.get('location')!).searchParams.get('checkoutReference')).toBe(reference);
    expect((await record(reference)).transactionStatus).toBe('SUCCESS');
  });

  it('refuses an answer the charge did not ask for, naming what it expects', async () => {
    const reference = await checkout();
    await pay(reference, '5060990000000000035');
    const wrong = await authorize(reference, { pin: '1234' });
    expect([wrong.status, wrong.body.data.code]).toEqual([422, 'UNEXPECTED_AUTHORIZATION']);
    expect(wrong.body.message).toContain('otp');
  });

  it('declines the sandbox declined and insufficient-funds cards', async () => {
    for (const [card, reason] of [
      ['4000000000000002', 'Declined by the card issuer'],
      ['4000000000009995', 'Insufficient funds'],
    ]) {
      const reference = await checkout();
      const answer = await pay(reference, card);
      expect(answer.body.data).toMatchObject({ transactionStatus: 'FAILED', message: reason });
    }
  });

  it('lets exactly one of two concurrent charges with different cards proceed', async () => {
    const reference = await checkout();
    const [a, b] = await Promise.all([pay(reference, '5060990000000000035'), pay(reference, '5060990000000000068')]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    expect([a, b].find((answer) => answer.status === 422)!.body.data.code).toBe('CHARGE_IN_PROGRESS');
  });

  it('sends a card that needs no verification to the network once when it is paid twice at once', async () => {
    const reference = await checkout();
    const answers = await Promise.all([pay(reference, '5060990000000000019'), pay(reference, '5060990000000000019')]);
    // The one that lost the race answers where the other's charge stands: in progress or paid.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await record(reference)).transactionStatus).toBe('SUCCESS');
    const requests = await queryTestDatabase(
      `SELECT state FROM card_processor.network_requests WHERE purpose = 'checkout' AND payment_reference = $1`,
      [reference],
    );
    expect(requests).toEqual([{ state: 'approved' }]);
  });

  it('fails a charge whose verification arrives after the checkout expired', async () => {
    const reference = await checkout();
    expect((await pay(reference, '5060990000000000035')).body.data.nextAction).toBe('otp');
    // The customer finds the code only after the checkout's expiry.
    await queryTestDatabase(
      `UPDATE card_processor.card_charges SET expires_at = now() - interval '1 second' WHERE checkout_reference = $1`,
      [reference],
    );
    const late = await authorize(reference, { otp: '123456' });
    expect(late.body.data).toMatchObject({
      transactionStatus: 'FAILED',
      nextAction: 'none',
      message: 'The checkout expired before the card was verified',
    });
    expect((await record(reference)).transactionStatus).toBe('FAILED');
  });

  it('books a successful card payment in the settlement wallet once', async () => {
    const reference = await checkout();
    await pay(reference, '5060990000000000035');
    await Promise.all([authorize(reference, { otp: '123456' }), authorize(reference, { otp: '123456' })]);
    await pay(reference, '5060990000000000035');

    const booked = () =>
      queryTestDatabase(
        `SELECT p.amount::text AS amount, w.type FROM outlets.journal_entries e JOIN outlets.postings p ON p.entry_id = e.id
         JOIN outlets.wallets w ON w.id = p.wallet_id WHERE e.business_id = $1 AND e.kind = 'checkout' AND e.reference = $2 ORDER BY w.type`,
        [partner.businessId, reference],
      );
    await eventually(async () => ((await booked()).length > 0 ? true : undefined), 30_000);
    // One entry: the payer's ₦2,500, less the default 1.5% card fee to revenue (docs/pricing.md).
    expect(await booked()).toEqual([
      { amount: '-250000', type: 'rail' },
      { amount: '3750', type: 'revenue' },
      { amount: '246250', type: 'settlement' },
    ]);
    expect(await record(reference)).toMatchObject(paidByCard('506099*********0035'));
  });

  it('emits checkout.success once, however often the ended charge is touched again', async () => {
    const reference = await checkout();
    await pay(reference, '5060990000000000035');
    await Promise.all([authorize(reference, { otp: '123456' }), authorize(reference, { otp: '123456' })]);
    await pay(reference, '5060990000000000035');
    const { Client } = await import('pg');
    const db = new Client({ connectionString: testEnvironment().DATABASE_URL });
    await db.connect();
    const { rows } = await db.query(`SELECT payload FROM gateway.outbox WHERE payload::text LIKE $1`, [
      `%${reference}%`,
    ]);
    await db.end();
    expect(rows.map((row) => row.payload.payload.event)).toEqual(['checkout.success']);
  });

  describe('a request sent again after its charge ended the checkout', () => {
    const outcome = (answer: Answer) => [answer.status, answer.body.message, answer.body.data.transactionStatus];

    it('answers the same card with how its charge ended, at once and after, and refuses another card', async () => {
      const reference = await checkout();
      const first = await pay(reference, '5060990000000000019');
      expect(outcome(first)).toEqual([200, 'Card charge processed', 'SUCCESS']);
      const retries = await Promise.all([pay(reference, '5060990000000000019'), pay(reference, '5060990000000000019')]);
      for (const retry of retries) expect(retry.body).toEqual(first.body);
      const another = await pay(reference, '5060990000000000027');
      expect([another.status, another.body.data.code]).toEqual([422, 'CHECKOUT_NOT_PAYABLE']);
    });

    it('answers a declined card again with its decline, and the checkout stays failed', async () => {
      const reference = await checkout();
      const declined = await pay(reference, '4000000000000002');
      expect(declined.body.data).toMatchObject({ transactionStatus: 'FAILED', message: 'Declined by the card issuer' });
      expect((await pay(reference, '4000000000000002')).body).toEqual(declined.body);
      expect((await record(reference)).transactionStatus).toBe('FAILED');
    });

    it('answers the last verification step again with the payment it completed', async () => {
      const reference = await checkout();
      await pay(reference, '5060990000000000035');
      const completed = await authorize(reference, { otp: '123456' });
      expect(outcome(completed)).toEqual([200, 'Card verification processed', 'SUCCESS']);
      expect((await authorize(reference, { otp: '123456' })).body).toEqual(completed.body);
    });
  });

  it('declines when the customer declines on the 3-D Secure page', async () => {
    const reference = await checkout();
    const redirectUrl = String((await pay(reference, '4000000000003006')).body.data.redirectUrl);
    const declined = await decideOnBankPage(redirectUrl, 'decline');
    expect(declined.status).toBe(303);
    expect((await record(reference)).transactionStatus).toBe('FAILED');
  });

  it('refuses cards on a checkout that does not accept them', async () => {
    const reference = await checkout(['pay-with-transfer']);
    const answer = await pay(reference, '5060990000000000019');
    expect([answer.status, answer.body.data.code]).toEqual([422, 'CHECKOUT_NOT_PAYABLE']);
  });
});
