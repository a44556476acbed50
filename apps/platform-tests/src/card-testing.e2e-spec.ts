import { randomInt } from 'node:crypto';

import { queryTestDatabase } from '@payments/testing';

import { appPorts, useApps } from './apps';
import { callGateway, createCheckout, onboardedPartner, PartnerCredentials } from './partners';

jest.setTimeout(300_000);

/** A card number no test card uses: a Mastercard-like prefix, random digits, a Luhn check digit. */
function freshCardNumber(): string {
  const body = `5399${String(randomInt(0, 1e11)).padStart(11, '0')}`;
  const sum = [...body]
    .reverse()
    .map(Number)
    .reduce((total, digit, i) => total + (i % 2 === 0 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

interface Attempt {
  status: number;
  code?: string;
  transactionStatus?: string;
}

async function payByCard(partner: PartnerCredentials, cardNumber: string, expiryDate = '12/30'): Promise<Attempt> {
  const reference = await createCheckout(partner, ['card']);
  const answer = await callGateway<{ code?: string; transactionStatus?: string }>(
    partner,
    'POST',
    `/checkout/${reference}/card-payment`,
    { cardNumber, expiryDate, cvv: '123' },
  );
  return { status: answer.status, code: answer.body.data.code, transactionStatus: answer.body.data.transactionStatus };
}

/** A card payment from the hosted page, as a payer at `address` sends it. */
async function payOnHostedPage(partner: PartnerCredentials, cardNumber: string, address: string): Promise<Attempt> {
  const reference = await createCheckout(partner, ['card']);
  const response = await fetch(
    `http://127.0.0.1:${appPorts['checkout-gateway']}/checkout/session/${reference}/card-payment`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ cardNumber, expiryDate: '12/30', cvv: '123' }),
    },
  );
  const body = (await response.json()) as { data: { code?: string; transactionStatus?: string } };
  return { status: response.status, code: body.data.code, transactionStatus: body.data.transactionStatus };
}

async function chargesReachingCardProcessor(businessId: string): Promise<number> {
  const rows = await queryTestDatabase<{ n: number }>(
    'SELECT count(*)::int AS n FROM card_processor.card_charges WHERE business_id = $1',
    [businessId],
  );
  return rows[0].n;
}

async function suspectedCount(signal: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${appPorts['checkout-gateway']}/metrics`)).text();
  const line = new RegExp(`^card_testing_suspected_total\\{[^}]*signal="${signal}"[^}]*\\} (\\d+)`, 'm').exec(text);
  return Number(line?.[1] ?? 0);
}

const refused = { status: 429, code: 'CARD_TESTING_SUSPECTED' };

describe('card-testing defences', () => {
  useApps(['checkout-gateway', 'card-processor', 'outlet-service']);

  it('refuses card attempts at a business once 25 of 200 different cards were declined, before card-processor', async () => {
    const partner = await onboardedPartner('Card Tested Shop');
    const before = await suspectedCount('business');
    const attempts: Attempt[] = [];
    // Expired cards: the development card host declines each (54), as an issuer declines most tested cards.
    for (let i = 0; i < 200; i += 1) attempts.push(await payByCard(partner, freshCardNumber(), '01/20'));

    expect(
      attempts.slice(0, 25).every((attempt) => attempt.status === 200 && attempt.transactionStatus === 'FAILED'),
    ).toBe(true);
    expect(attempts.slice(25)).toEqual(Array.from({ length: 175 }, () => expect.objectContaining(refused)));
    expect(await chargesReachingCardProcessor(partner.businessId)).toBe(25);
    expect((await suspectedCount('business')) - before).toBe(175);

    // Another business's customers are not held back.
    const neighbour = await onboardedPartner('Neighbour Shop');
    expect(await payByCard(neighbour, freshCardNumber())).toMatchObject({ status: 200, transactionStatus: 'SUCCESS' });
  });

  it('refuses one card tried at a sixth checkout within 15 minutes, at any business', async () => {
    const [first, second] = [await onboardedPartner('First Shop'), await onboardedPartner('Second Shop')];
    const card = freshCardNumber();
    const attempts: Attempt[] = [];
    for (let i = 0; i < 7; i += 1) attempts.push(await payByCard(i % 2 === 0 ? first : second, card));
    expect(attempts.slice(0, 5).map((attempt) => attempt.status)).toEqual([200, 200, 200, 200, 200]);
    expect(attempts.slice(5)).toEqual([expect.objectContaining(refused), expect.objectContaining(refused)]);
    // A different card at the same business goes through.
    expect(await payByCard(first, freshCardNumber())).toMatchObject({ status: 200, transactionStatus: 'SUCCESS' });
  });

  it('refuses an eleventh different card from one payer address on the hosted page, and no other address', async () => {
    const partner = await onboardedPartner('Hosted Page Shop');
    const attempts: Attempt[] = [];
    for (let i = 0; i < 12; i += 1) attempts.push(await payOnHostedPage(partner, freshCardNumber(), '198.51.100.9'));
    expect(attempts.slice(0, 10).every((attempt) => attempt.transactionStatus === 'SUCCESS')).toBe(true);
    expect(attempts.slice(10)).toEqual([expect.objectContaining(refused), expect.objectContaining(refused)]);
    expect(await payOnHostedPage(partner, freshCardNumber(), '198.51.100.10')).toMatchObject({
      status: 200,
      transactionStatus: 'SUCCESS',
    });
  });

  it("leaves the sandbox's test cards to a partner's own tests, declines included", async () => {
    const partner = await onboardedPartner('Test Suite Shop');
    const declines: Attempt[] = [];
    for (let i = 0; i < 30; i += 1) declines.push(await payByCard(partner, '4000000000000002'));
    expect(declines.every((attempt) => attempt.status === 200 && attempt.transactionStatus === 'FAILED')).toBe(true);
    const approvals: Attempt[] = [];
    for (let i = 0; i < 8; i += 1) approvals.push(await payByCard(partner, '5060990000000000019'));
    expect(approvals.every((attempt) => attempt.transactionStatus === 'SUCCESS')).toBe(true);
    expect(await payByCard(partner, freshCardNumber())).toMatchObject({ status: 200, transactionStatus: 'SUCCESS' });
  });
});
