import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { queryTestDatabase } from '@payments/testing';
import { Browser, BrowserContext, Page } from 'playwright-core';

import { appPorts, repoRoot, RunningApp, startApps, stopApps } from '../apps';
import { launchBrowser } from '../browser';
import { callGateway, onboardedPartner, PartnerCredentials } from '../partners';

export const gateway = `http://127.0.0.1:${appPorts['checkout-gateway']}`;

export interface TestCard {
  scenario: string;
  cardNumber: string;
  expiryDate: string;
  cvv: string;
  pin: string;
  otp: string;
}
const testCards = JSON.parse(readFileSync(join(repoRoot, 'docs/test-cards.json'), 'utf8')) as TestCard[];
export const card = (scenario: string) => testCards.find((candidate) => candidate.scenario === scenario)!;

/** The verification screens each sandbox card leads to, in order (docs/test-cards.json). */
export const stepsByScenario: Record<string, string[]> = {
  'no verification': [],
  pin: ['Enter your card PIN', 'Enter the code your bank sent you'],
  otp: ['Enter the code your bank sent you'],
  avs: ['Confirm your billing address'],
  birthday: ['Confirm your date of birth'],
  phone: ['Confirm your phone number'],
};

/**
 * What every browser suite of the hosted page shares: the gateway, card-processor and
 * outlet-service as processes, a partner, a merchant site to return to, and a fresh browser
 * context and page per test (a test may swap them for another viewport).
 */
export class HostedCheckoutSuite {
  readonly apps: RunningApp[] = [];
  partner!: PartnerCredentials;
  browser!: Browser;
  context!: BrowserContext;
  page!: Page;
  merchantUrl!: string;
  private merchant?: Server;

  call = (method: string, path: string, body?: unknown) =>
    callGateway<Record<string, string>>(this.partner, method, path, body);

  createCheckout = async (paymentMethod: string[], extra: Record<string, unknown> = {}) =>
    (
      await this.call('POST', '/payin/charge/requests', {
        amount: '1234567',
        accountName: 'Ada Obi',
        paymentMethod,
        ...extra,
      })
    ).body.data as { reference: string; link: string };

  record = async (reference: string) => (await this.call('GET', `/payin/charge/requests/${reference}`)).body.data;

  result = (target = this.page) => target.locator('#result');

  /** Moves the checkout's expiry into the past, as if the customer had taken too long. */
  expireCheckout = (reference: string) =>
    queryTestDatabase(`UPDATE gateway.checkouts SET expires_at = now() - interval '1 second' WHERE reference = $1`, [
      reference,
    ]);

  fillCard = async (test: TestCard): Promise<void> => {
    await this.page.getByLabel('Card number', { exact: true }).fill(test.cardNumber);
    await this.page.getByLabel(/Expiry date/).fill(test.expiryDate);
    await this.page.getByLabel(/CVV/).fill(test.cvv);
    await this.page.getByRole('button', { name: 'Pay ₦12,345.67' }).click();
  };

  answerStep = async (title: string, test: TestCard): Promise<void> => {
    const page = this.page;
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
  };

  async start(): Promise<void> {
    this.merchant = createServer((_request, response) =>
      response.end('<!doctype html><title>Merchant</title><h1>Back at the shop</h1>'),
    );
    await new Promise<void>((listening) => this.merchant!.listen(0, '127.0.0.1', listening));
    this.merchantUrl = `http://127.0.0.1:${(this.merchant.address() as AddressInfo).port}/orders/42`;
    const started = startApps(['checkout-gateway', 'card-processor', 'outlet-service'], {
      'checkout-gateway': { CHECKOUT_URL: `${gateway}/checkout` },
    });
    this.browser = await launchBrowser();
    this.apps.push(...(await started));
    this.partner = await onboardedPartner('Lagos Books & Café');
  }

  async stop(): Promise<void> {
    await this.browser?.close();
    this.merchant?.close();
    await stopApps(this.apps);
  }
}

/** A suite's shared platform, browser and page, set up and torn down by Jest's hooks. */
export function hostedCheckoutSuite(): HostedCheckoutSuite {
  const suite = new HostedCheckoutSuite();
  beforeAll(() => suite.start());
  afterAll(() => suite.stop());
  beforeEach(async () => {
    suite.context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    suite.page = await suite.context.newPage();
  });
  afterEach(() => suite.context.close());
  return suite;
}
