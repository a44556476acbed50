/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser, hence the DOM types.

import { recordRequests, screenshot } from '../browser';
import { card, hostedCheckoutSuite, stepsByScenario } from './hosted-checkout.fixture';

jest.setTimeout(180_000);

describe('the hosted checkout page in a real browser: paying by card through every verification step', () => {
  const h = hostedCheckoutSuite();

  for (const scenario of Object.keys(stepsByScenario)) {
    it(`pays with the "${scenario}" test card through to the success screen`, async () => {
      const test = card(scenario);
      const { link, reference } = await h.createCheckout(['card']);
      await h.page.goto(link);
      await h.fillCard(test);
      for (const title of stepsByScenario[scenario]) await h.answerStep(title, test);
      await expect(h.result().getByRole('heading').textContent()).resolves.toBe('Payment successful');
      expect((await h.record(reference)).transactionStatus).toBe('SUCCESS');
      await screenshot(h.page, `card-${scenario.replace(/\s+/g, '-')}`);
    });
  }

  it('pays with the 3-D Secure test card through the bank page and back', async () => {
    const { link, reference } = await h.createCheckout(['card']);
    await h.page.goto(link);
    await h.fillCard(card('3ds'));
    await h.page.waitForURL(/\/sandbox\/3ds\//);
    await h.page.getByRole('button', { name: 'Approve payment' }).click();
    await h.page.waitForURL((url) => url.searchParams.get('checkoutReference') === reference);
    await expect(h.result().getByRole('heading').textContent()).resolves.toBe('This checkout has been paid');
    expect((await h.record(reference)).transactionStatus).toBe('SUCCESS');
    await screenshot(h.page, 'card-3ds');
  });

  for (const scenario of ['declined', 'insufficient funds']) {
    it(`shows the failure screen for the "${scenario}" test card`, async () => {
      const { link, reference } = await h.createCheckout(['card']);
      await h.page.goto(link);
      await h.fillCard(card(scenario));
      await expect(h.result().getByRole('heading').textContent()).resolves.toBe('Payment failed');
      await expect(h.page.locator('#result-text').textContent()).resolves.toContain(
        scenario === 'declined' ? 'Declined by the card issuer' : 'Insufficient funds',
      );
      expect((await h.record(reference)).transactionStatus).toBe('FAILED');
      await screenshot(h.page, `card-${scenario.replace(/\s+/g, '-')}`);
    });
  }

  it('says how many tries are left after a wrong PIN, then completes', async () => {
    const test = card('pin');
    const { link } = await h.createCheckout(['card']);
    await h.page.goto(link);
    await h.fillCard(test);
    await h.answerStep('Enter your card PIN', { ...test, pin: '9999' });
    await h.page.getByRole('alert').filter({ hasText: '2 attempts left' }).waitFor();
    await h.answerStep('Enter your card PIN', test);
    await h.answerStep('Enter the code your bank sent you', { ...test, otp: '000000' });
    await h.page.getByRole('alert').filter({ hasText: '2 attempts left' }).waitFor();
    await h.answerStep('Enter the code your bank sent you', test);
    await expect(h.result().getByRole('heading').textContent()).resolves.toBe('Payment successful');
  });

  it('checks the card number before sending anything, and names the brand', async () => {
    const requests = recordRequests(h.page);
    const { link } = await h.createCheckout(['card']);
    await h.page.goto(link);
    await h.page.getByLabel('Card number', { exact: true }).fill('4000000000000003');
    await expect(h.page.locator('#card-brand').textContent()).resolves.toBe('Visa');
    await expect(h.page.getByLabel('Card number', { exact: true }).inputValue()).resolves.toBe('4000 0000 0000 0003');
    await h.page.getByLabel(/Expiry date/).fill('01/20');
    await h.page.getByRole('button', { name: 'Pay ₦12,345.67' }).click();
    await expect(h.page.locator('#card-number-error').textContent()).resolves.toBe('Enter a valid card number.');
    await expect(h.page.locator('#card-expiry-error').textContent()).resolves.toBe('This card has expired.');
    await expect(
      h.page.getByLabel('Card number', { exact: true }).evaluate((input) => input === document.activeElement),
    ).resolves.toBe(true);
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('tells the customer when the checkout expired while they were paying', async () => {
    const { link, reference } = await h.createCheckout(['card']);
    await h.page.goto(link);
    await h.expireCheckout(reference);
    await h.fillCard(card('no verification'));
    await expect(h.result().getByRole('heading').textContent()).resolves.toBe('Payment failed');
    await expect(h.page.locator('#result-text').textContent()).resolves.toContain('expired');
    await screenshot(h.page, 'card-checkout-expired');
  });

  it('completes a card payment with the keyboard alone at 360 px, then returns to the merchant', async () => {
    await h.context.close();
    h.context = await h.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    h.page = await h.context.newPage();
    const requests = recordRequests(h.page);
    const test = card('otp');
    const { link, reference } = await h.createCheckout(['card', 'pay-with-transfer'], { returnUrl: h.merchantUrl });
    await h.page.goto(link);
    await screenshot(h.page, 'page-360px');
    expect(await h.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // The card method is chosen first; from the top of the page, Tab reaches its fields.
    const focused = () => h.page.evaluate(() => document.activeElement?.id ?? '');
    for (let presses = 0; presses < 10 && (await focused()) !== 'card-number'; presses += 1) {
      await h.page.keyboard.press('Tab');
    }
    expect(await focused()).toBe('card-number');
    const outline = await h.page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await h.page.keyboard.type(test.cardNumber);
    await h.page.keyboard.press('Tab');
    await h.page.keyboard.type('1230');
    await h.page.keyboard.press('Tab');
    await h.page.keyboard.type(test.cvv);
    await h.page.keyboard.press('Enter');
    await h.page.getByRole('heading', { name: 'Enter the code your bank sent you' }).waitFor();
    expect(await focused()).toBe('step-otp');
    await h.page.keyboard.type(test.otp);
    await h.page.keyboard.press('Enter');
    await expect(h.result().getByRole('heading').textContent()).resolves.toBe('Payment successful');
    await expect(h.page.getByRole('link', { name: 'Return to Lagos Books & Café' }).isVisible()).resolves.toBe(true);
    await screenshot(h.page, 'card-keyboard-360px');

    await h.page.waitForURL((url) => url.pathname === '/orders/42', { timeout: 15_000 });
    const back = new URL(h.page.url());
    expect([back.searchParams.get('reference'), back.searchParams.get('status')]).toEqual([reference, 'SUCCESS']);

    // Card details went only into one request body: never a URL, storage or a cookie.
    expect(requests.filter((request) => request.url.includes(test.cardNumber))).toEqual([]);
    expect(
      requests
        .filter((request) => request.postData?.includes(test.cardNumber))
        .map((request) => new URL(request.url).pathname),
    ).toEqual([`/checkout/session/${reference}/card-payment`]);
    expect(await h.context.cookies()).toEqual([]);
    expect(h.apps[0].output()).not.toContain(test.cardNumber);
  });

  it('keeps nothing of the card in browser storage', async () => {
    const { link } = await h.createCheckout(['card']);
    await h.page.goto(link);
    await h.fillCard(card('no verification'));
    await h.result().getByRole('heading').waitFor();
    expect(await h.page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([
      0,
      0,
      '',
    ]);
  });
});
