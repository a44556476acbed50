/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser, hence the DOM types.
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { eventually, queryTestDatabase } from '@payments/testing';
import { Browser, BrowserContext, Page } from 'playwright-core';

import {
  appPorts,
  callGateway,
  createPartner,
  PartnerCredentials,
  repoRoot,
  RunningApp,
  spawnApp,
  waitForReady,
} from './apps';
import { accessibilityViolations, launchBrowser, recordRequests, screenshot } from './browser';

jest.setTimeout(180_000);

const gateway = `http://127.0.0.1:${appPorts['checkout-gateway']}`;

interface TestCard {
  scenario: string;
  cardNumber: string;
  expiryDate: string;
  cvv: string;
  pin: string;
  otp: string;
}
const testCards = JSON.parse(readFileSync(join(repoRoot, 'docs/test-cards.json'), 'utf8')) as TestCard[];
const card = (scenario: string) => testCards.find((candidate) => candidate.scenario === scenario)!;

/** The verification screens each sandbox card leads to, in order (docs/test-cards.json). */
const stepsByScenario: Record<string, string[]> = {
  'no verification': [],
  pin: ['Enter your card PIN', 'Enter the code your bank sent you'],
  otp: ['Enter the code your bank sent you'],
  avs: ['Confirm your billing address'],
  birthday: ['Confirm your date of birth'],
  phone: ['Confirm your phone number'],
};

describe('the hosted checkout page in a real browser', () => {
  const apps: RunningApp[] = [];
  let partner: PartnerCredentials;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merchant: Server;
  let merchantUrl: string;

  const call = (method: string, path: string, body?: unknown) =>
    callGateway<Record<string, string>>(partner, method, path, body);
  const createCheckout = async (paymentMethod: string[], extra: Record<string, unknown> = {}) =>
    (
      await call('POST', '/payin/charge/requests', {
        amount: '1234567',
        accountName: 'Ada Obi',
        paymentMethod,
        ...extra,
      })
    ).body.data as { reference: string; link: string };
  const record = async (reference: string) => (await call('GET', `/payin/charge/requests/${reference}`)).body.data;
  const result = (target = page) => target.locator('#result');
  /** Moves the checkout's expiry into the past, as if the customer had taken too long. */
  const expireCheckout = (reference: string) =>
    queryTestDatabase(`UPDATE gateway.checkouts SET expires_at = now() - interval '1 second' WHERE reference = $1`, [
      reference,
    ]);

  async function fillCard(test: TestCard): Promise<void> {
    await page.getByLabel('Card number', { exact: true }).fill(test.cardNumber);
    await page.getByLabel(/Expiry date/).fill(test.expiryDate);
    await page.getByLabel(/CVV/).fill(test.cvv);
    await page.getByRole('button', { name: 'Pay ₦12,345.67' }).click();
  }

  async function answerStep(title: string, test: TestCard): Promise<void> {
    await page.getByRole('heading', { name: title }).waitFor();
    if (title.includes('PIN')) await page.getByLabel('Card PIN', { exact: true }).fill(test.pin);
    if (title.includes('code')) await page.getByLabel('One-time code', { exact: true }).fill(test.otp);
    if (title.includes('birth')) await page.getByLabel(/Date of birth/).fill('1990-01-31');
    if (title.includes('phone')) await page.getByLabel(/Phone number/).fill('08031234567');
    if (title.includes('address')) {
      await page.getByLabel('Street address', { exact: true }).fill('12 Marina Road');
      await page.getByLabel('City', { exact: true }).fill('Lagos');
      await page.getByLabel('State', { exact: true }).fill('Lagos');
      await page.getByLabel('Postal code', { exact: true }).fill('101001');
    }
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  beforeAll(async () => {
    merchant = createServer((_request, response) =>
      response.end('<!doctype html><title>Merchant</title><h1>Back at the shop</h1>'),
    );
    await new Promise<void>((listening) => merchant.listen(0, '127.0.0.1', listening));
    merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/orders/42`;
    apps.push(
      spawnApp('checkout-gateway', { CHECKOUT_URL: `${gateway}/checkout` }),
      spawnApp('card-processor'),
      spawnApp('outlet-service'),
    );
    const started = Promise.all(apps.map((app) => waitForReady(appPorts[app.name], app)));
    browser = await launchBrowser();
    await started;
    partner = createPartner('Lagos Books & Café');
    // Onboarding reaches outlet-service over Kafka; transfer accounts wait for it.
    const probe = await createCheckout(['pay-with-transfer']);
    await eventually(
      async () =>
        (await call('POST', `/checkout/${probe.reference}/pay-with-transfer`)).status === 200 ? true : undefined,
      30_000,
    );
  });

  afterAll(async () => {
    await browser?.close();
    merchant?.close();
    for (const app of apps) app.process.kill('SIGTERM');
    await Promise.all(apps.map((app) => app.exited));
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });

  afterEach(async () => {
    await context.close();
  });

  it('shows the business, the amount in naira and only the allowed methods, from our origin alone, under 100 KB', async () => {
    const requests = recordRequests(page);
    const { link } = await createCheckout(['card', 'qr-wallet']);
    const response = await page.goto(link);
    await page.waitForLoadState('networkidle');

    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.locator('.merchant').textContent()).resolves.toBe('Lagos Books & Café');
    await expect(page.locator('.amount').textContent()).resolves.toBe('Amount to pay: ₦12,345.67');
    await expect(page.locator('.method').allInnerTexts()).resolves.toEqual(['Card', 'QR code']);
    expect(await page.locator('#method-pay-with-transfer').count()).toBe(0);

    const origins = new Set(requests.map((request) => new URL(request.url).origin));
    expect([...origins]).toEqual([gateway]);
    const firstLoadBytes = requests.reduce((sum, request) => sum + request.bytes, 0);
    expect(firstLoadBytes).toBeGreaterThan(0);
    expect(firstLoadBytes).toBeLessThan(100 * 1024);
    await screenshot(page, 'page-desktop');
  });

  for (const scenario of Object.keys(stepsByScenario)) {
    it(`pays with the "${scenario}" test card through to the success screen`, async () => {
      const test = card(scenario);
      const { link, reference } = await createCheckout(['card']);
      await page.goto(link);
      await fillCard(test);
      for (const title of stepsByScenario[scenario]) await answerStep(title, test);
      await expect(result().getByRole('heading').textContent()).resolves.toBe('Payment successful');
      expect((await record(reference)).transactionStatus).toBe('SUCCESS');
      await screenshot(page, `card-${scenario.replace(/\s+/g, '-')}`);
    });
  }

  it('pays with the 3-D Secure test card through the bank page and back', async () => {
    const { link, reference } = await createCheckout(['card']);
    await page.goto(link);
    await fillCard(card('3ds'));
    await page.waitForURL(/\/sandbox\/3ds\//);
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.waitForURL((url) => url.searchParams.get('checkoutReference') === reference);
    await expect(result().getByRole('heading').textContent()).resolves.toBe('This checkout has been paid');
    expect((await record(reference)).transactionStatus).toBe('SUCCESS');
    await screenshot(page, 'card-3ds');
  });

  for (const scenario of ['declined', 'insufficient funds']) {
    it(`shows the failure screen for the "${scenario}" test card`, async () => {
      const { link, reference } = await createCheckout(['card']);
      await page.goto(link);
      await fillCard(card(scenario));
      await expect(result().getByRole('heading').textContent()).resolves.toBe('Payment failed');
      await expect(page.locator('#result-text').textContent()).resolves.toContain(
        scenario === 'declined' ? 'Do not honour' : 'Insufficient funds',
      );
      expect((await record(reference)).transactionStatus).toBe('FAILED');
      await screenshot(page, `card-${scenario.replace(/\s+/g, '-')}`);
    });
  }

  it('says how many tries are left after a wrong PIN, then completes', async () => {
    const test = card('pin');
    const { link } = await createCheckout(['card']);
    await page.goto(link);
    await fillCard(test);
    await answerStep('Enter your card PIN', { ...test, pin: '9999' });
    await page.getByRole('alert').filter({ hasText: '2 attempts left' }).waitFor();
    await answerStep('Enter your card PIN', test);
    await answerStep('Enter the code your bank sent you', { ...test, otp: '000000' });
    await page.getByRole('alert').filter({ hasText: '2 attempts left' }).waitFor();
    await answerStep('Enter the code your bank sent you', test);
    await expect(result().getByRole('heading').textContent()).resolves.toBe('Payment successful');
  });

  it('checks the card number before sending anything, and names the brand', async () => {
    const requests = recordRequests(page);
    const { link } = await createCheckout(['card']);
    await page.goto(link);
    await page.getByLabel('Card number', { exact: true }).fill('4000000000000003');
    await expect(page.locator('#card-brand').textContent()).resolves.toBe('Visa');
    await expect(page.getByLabel('Card number', { exact: true }).inputValue()).resolves.toBe('4000 0000 0000 0003');
    await page.getByLabel(/Expiry date/).fill('01/20');
    await page.getByRole('button', { name: 'Pay ₦12,345.67' }).click();
    await expect(page.locator('#card-number-error').textContent()).resolves.toBe('Enter a valid card number.');
    await expect(page.locator('#card-expiry-error').textContent()).resolves.toBe('This card has expired.');
    await expect(
      page.getByLabel('Card number', { exact: true }).evaluate((input) => input === document.activeElement),
    ).resolves.toBe(true);
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('tells the customer when the checkout expired while they were paying', async () => {
    const { link, reference } = await createCheckout(['card']);
    await page.goto(link);
    await expireCheckout(reference);
    await fillCard(card('no verification'));
    await expect(result().getByRole('heading').textContent()).resolves.toBe('Payment failed');
    await expect(page.locator('#result-text').textContent()).resolves.toContain('expired');
    await screenshot(page, 'card-checkout-expired');
  });

  it('pays by bank transfer: account number with a copy button and a countdown, then success by itself', async () => {
    const { link, reference } = await createCheckout(['card', 'pay-with-transfer', 'qr-wallet']);
    await page.goto(link);
    await page.getByRole('button', { name: 'Bank transfer' }).click();
    await page.locator('#transfer-details').waitFor({ timeout: 30_000 });
    const accountNumber = (await page.locator('#transfer-account').textContent())!;
    expect(accountNumber).toMatch(/^\d{10}$/);
    await expect(page.locator('#transfer-bank').textContent()).resolves.toBe('Sandbox Bank');
    await expect(page.locator('#transfer-remaining').textContent()).resolves.toMatch(/^(29|30):\d{2}$/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway });
    await page.getByRole('button', { name: 'Copy account number' }).click();
    await page.locator('#copy-status').filter({ hasText: 'Account number copied.' }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(accountNumber);

    const paid = await call('POST', `/sandbox/virtual-accounts/${accountNumber}/credit`, {
      amount: '1234567',
      senderName: 'Ada Obi',
    });
    expect(paid.status).toBe(200);
    await expect(result().getByRole('heading').textContent({ timeout: 30_000 })).resolves.toBe('Payment successful');
    await expect(page.locator('#result-text').textContent()).resolves.toContain('by bank transfer');
    expect((await record(reference)).usedMethod).toBe('pay-with-transfer');
    await screenshot(page, 'transfer-success');
  });

  it('pays by QR code: shows the code and completes by itself when the wallet pays', async () => {
    const { link, reference } = await createCheckout(['qr-wallet']);
    await page.goto(link);
    const image = page.getByRole('img', { name: 'QR code to pay ₦12,345.67' });
    await expect(
      image.evaluate((element: HTMLImageElement) => element.decode().then(() => element.naturalWidth)),
    ).resolves.toBeGreaterThan(0);
    const qr = (await call('POST', `/checkout/${reference}/qr`)).body.data;
    expect((await call('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload })).status).toBe(200);
    await expect(result().getByRole('heading').textContent({ timeout: 30_000 })).resolves.toBe('Payment successful');
    await screenshot(page, 'qr-success');
  });

  it('completes a card payment with the keyboard alone at 360 px, then returns to the merchant', async () => {
    await context.close();
    context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    page = await context.newPage();
    const requests = recordRequests(page);
    const test = card('otp');
    const { link, reference } = await createCheckout(['card', 'pay-with-transfer'], { returnUrl: merchantUrl });
    await page.goto(link);
    await screenshot(page, 'page-360px');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // The card method is chosen first; from the top of the page, Tab reaches its fields.
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    for (let presses = 0; presses < 10 && (await focused()) !== 'card-number'; presses += 1)
      await page.keyboard.press('Tab');
    expect(await focused()).toBe('card-number');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.type(test.cardNumber);
    await page.keyboard.press('Tab');
    await page.keyboard.type('1230');
    await page.keyboard.press('Tab');
    await page.keyboard.type(test.cvv);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Enter the code your bank sent you' }).waitFor();
    expect(await focused()).toBe('step-otp');
    await page.keyboard.type(test.otp);
    await page.keyboard.press('Enter');
    await expect(result().getByRole('heading').textContent()).resolves.toBe('Payment successful');
    await expect(page.getByRole('link', { name: 'Return to Lagos Books & Café' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'card-keyboard-360px');

    await page.waitForURL((url) => url.pathname === '/orders/42', { timeout: 15_000 });
    const back = new URL(page.url());
    expect([back.searchParams.get('reference'), back.searchParams.get('status')]).toEqual([reference, 'SUCCESS']);

    // Card details went only into one request body: never a URL, storage or a cookie.
    expect(requests.filter((request) => request.url.includes(test.cardNumber))).toEqual([]);
    expect(
      requests
        .filter((request) => request.postData?.includes(test.cardNumber))
        .map((request) => new URL(request.url).pathname),
    ).toEqual([`/checkout/session/${reference}/card-payment`]);
    expect(await context.cookies()).toEqual([]);
    expect(apps[0].output()).not.toContain(test.cardNumber);
  });

  it('passes an automated WCAG 2.1 AA audit on each screen: labels, contrast, names', async () => {
    await context.close();
    context = await browser.newContext({ viewport: { width: 360, height: 740 }, bypassCSP: true });
    page = await context.newPage();
    const test = card('avs');
    const { link } = await createCheckout(['card', 'pay-with-transfer', 'qr-wallet']);
    await page.goto(link);
    const screens: Record<string, Awaited<ReturnType<typeof accessibilityViolations>>> = {};
    await page.getByRole('button', { name: 'Pay ₦12,345.67' }).click();
    await page.locator('#card-number-error').waitFor();
    screens['card form with errors'] = await accessibilityViolations(page);
    await page.getByRole('button', { name: 'QR code' }).click();
    screens['QR code'] = await accessibilityViolations(page);
    await page.getByRole('button', { name: 'Bank transfer' }).click();
    await page.locator('#transfer-details').waitFor({ timeout: 30_000 });
    screens['bank transfer'] = await accessibilityViolations(page);
    await page.getByRole('button', { name: 'Card', exact: true }).click();
    await fillCard(test);
    await page.getByRole('heading', { name: 'Confirm your billing address' }).waitFor();
    screens['address step'] = await accessibilityViolations(page);
    await answerStep('Confirm your billing address', test);
    await result().getByRole('heading').waitFor();
    screens['success'] = await accessibilityViolations(page);
    expect(screens).toEqual({
      'card form with errors': [],
      'QR code': [],
      'bank transfer': [],
      'address step': [],
      success: [],
    });
  });

  it('keeps nothing of the card in browser storage', async () => {
    const { link } = await createCheckout(['card']);
    await page.goto(link);
    await fillCard(card('no verification'));
    await result().getByRole('heading').waitFor();
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([
      0,
      0,
      '',
    ]);
  });

  it('answers an unknown reference, a paid checkout and an expired one with a clear page', async () => {
    const unknown = await page.goto(`${gateway}/checkout?checkoutReference=CHK-UNKNOWN`);
    expect(unknown!.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'We could not find this checkout',
    );
    await screenshot(page, 'not-found');

    const paid = await createCheckout(['qr-wallet'], { returnUrl: merchantUrl });
    const qr = (await call('POST', `/checkout/${paid.reference}/qr`)).body.data;
    await call('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload });
    await page.goto(paid.link);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This checkout has been paid');
    await expect(page.getByRole('link', { name: /Return to/ }).getAttribute('href')).resolves.toBe(
      `${merchantUrl}?reference=${paid.reference}&status=SUCCESS`,
    );

    const expired = await createCheckout(['card']);
    await expireCheckout(expired.reference);
    await page.goto(expired.link);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This checkout has expired');
    await screenshot(page, 'expired');
  });

  it('shows a checkout only what the customer may see, and refuses work on another reference', async () => {
    const { reference } = await createCheckout(['card'], {
      email: 'ada@example.ng',
      metadata: { orderId: 'secret-42' },
      callBackUrl: merchantUrl,
    });
    const view = (await (await fetch(`${gateway}/checkout/session/${reference}`)).json()) as {
      data: Record<string, unknown>;
    };
    expect(Object.keys(view.data).sort()).toEqual([
      'amount',
      'businessName',
      'expiresAt',
      'paymentMethod',
      'reference',
      'returnUrl',
      'testMode',
      'transactionStatus',
      'usedMethod',
    ]);
    expect(JSON.stringify(view)).not.toContain('secret-42');
    const other = await fetch(`${gateway}/checkout/session/CHK-NOT-A-CHECKOUT/card-payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cardNumber: card('no verification').cardNumber, expiryDate: '12/30', cvv: '123' }),
    });
    expect(other.status).toBe(404);
  });
});
