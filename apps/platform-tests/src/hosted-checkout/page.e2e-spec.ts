/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser, hence the DOM types.

import { accessibilityViolations, recordRequests, screenshot } from '../browser';
import { card, gateway, hostedCheckoutSuite } from './hosted-checkout.fixture';

jest.setTimeout(180_000);

describe('the hosted checkout page in a real browser: what it shows, to whom, and to everyone', () => {
  const h = hostedCheckoutSuite();

  it('shows the business, the amount in naira and only the allowed methods, from our origin alone, under 100 KB', async () => {
    const requests = recordRequests(h.page);
    const { link } = await h.createCheckout(['card', 'qr-wallet']);
    const response = await h.page.goto(link);
    await h.page.waitForLoadState('networkidle');

    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(h.page.locator('.merchant').textContent()).resolves.toBe('Lagos Books & Café');
    await expect(h.page.locator('.amount').textContent()).resolves.toBe('Amount to pay: ₦12,345.67');
    await expect(h.page.locator('.method').allInnerTexts()).resolves.toEqual(['Card', 'QR code']);
    expect(await h.page.locator('#method-pay-with-transfer').count()).toBe(0);

    const origins = new Set(requests.map((request) => new URL(request.url).origin));
    expect([...origins]).toEqual([gateway]);
    const firstLoadBytes = requests.reduce((sum, request) => sum + request.bytes, 0);
    expect(firstLoadBytes).toBeGreaterThan(0);
    expect(firstLoadBytes).toBeLessThan(100 * 1024);
    await screenshot(h.page, 'page-desktop');
  });

  it('passes an automated WCAG 2.1 AA audit on each screen: labels, contrast, names', async () => {
    await h.context.close();
    h.context = await h.browser.newContext({ viewport: { width: 360, height: 740 }, bypassCSP: true });
    h.page = await h.context.newPage();
    const test = card('avs');
    const { link } = await h.createCheckout(['card', 'pay-with-transfer', 'qr-wallet']);
    await h.page.goto(link);
    const screens: Record<string, Awaited<ReturnType<typeof accessibilityViolations>>> = {};
    await h.page.getByRole('button', { name: 'Pay ₦12,345.67' }).click();
    await h.page.locator('#card-number-error').waitFor();
    screens['card form with errors'] = await accessibilityViolations(h.page);
    await h.page.getByRole('button', { name: 'QR code' }).click();
    screens['QR code'] = await accessibilityViolations(h.page);
    await h.page.getByRole('button', { name: 'Bank transfer' }).click();
    await h.page.locator('#transfer-details').waitFor({ timeout: 30_000 });
    screens['bank transfer'] = await accessibilityViolations(h.page);
    await h.page.getByRole('button', { name: 'Card', exact: true }).click();
    await h.fillCard(test);
    await h.page.getByRole('heading', { name: 'Confirm your billing address' }).waitFor();
    screens['address step'] = await accessibilityViolations(h.page);
    await h.answerStep('Confirm your billing address', test);
    await h.result().getByRole('heading').waitFor();
    screens['success'] = await accessibilityViolations(h.page);
    expect(screens).toEqual({
      'card form with errors': [],
      'QR code': [],
      'bank transfer': [],
      'address step': [],
      success: [],
    });
  });

  it('answers an unknown reference, a paid checkout and an expired one with a clear page', async () => {
    const unknown = await h.page.goto(`${gateway}/checkout?checkoutReference=CHK-UNKNOWN`);
    expect(unknown!.status()).toBe(404);
    await expect(h.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'We could not find this checkout',
    );
    await screenshot(h.page, 'not-found');

    const paid = await h.createCheckout(['qr-wallet'], { returnUrl: h.merchantUrl });
    const qr = (await h.call('POST', `/checkout/${paid.reference}/qr`)).body.data;
    await h.call('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload });
    await h.page.goto(paid.link);
    await expect(h.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This checkout has been paid');
    await expect(h.page.getByRole('link', { name: /Return to/ }).getAttribute('href')).resolves.toBe(
      `${h.merchantUrl}?reference=${paid.reference}&status=SUCCESS`,
    );

    const expired = await h.createCheckout(['card']);
    await h.expireCheckout(expired.reference);
    await h.page.goto(expired.link);
    await expect(h.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This checkout has expired');
    await screenshot(h.page, 'expired');
  });

  it('shows a checkout only what the customer may see, and refuses work on another reference', async () => {
    const { reference } = await h.createCheckout(['card'], {
      email: 'ada@example.ng',
      metadata: { orderId: 'secret-42' },
      callBackUrl: h.merchantUrl,
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

  it('answers its own API with 200 in the envelope, a POST too, and never lets an answer be cached', async () => {
    const { reference } = await h.createCheckout(['pay-with-transfer']);
    const view = await fetch(`${gateway}/checkout/session/${reference}`);
    const account = await fetch(`${gateway}/checkout/session/${reference}/pay-with-transfer`, { method: 'POST' });
    for (const [answer, message] of [
      [view, 'Checkout retrieved'],
      [account, 'Transfer details ready'],
    ] as const) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(await answer.json()).toMatchObject({ status: true, statusCode: 200, message });
    }
  });
});
