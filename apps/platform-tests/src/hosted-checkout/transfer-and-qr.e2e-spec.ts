/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser, hence the DOM types.

import { eventually } from '@payments/testing';

import { screenshot } from '../browser';
import { callGateway, createPartner } from '../partners';
import { card, gateway, hostedCheckoutSuite } from './hosted-checkout.fixture';

jest.setTimeout(180_000);

describe('the hosted checkout page in a real browser: paying by bank transfer and by QR code', () => {
  const h = hostedCheckoutSuite();

  it('pays by bank transfer: account number with a copy button and a countdown, then success by itself', async () => {
    const { link, reference } = await h.createCheckout(['card', 'pay-with-transfer', 'qr-wallet']);
    await h.page.goto(link);
    await h.page.getByRole('button', { name: 'Bank transfer' }).click();
    await h.page.locator('#transfer-details').waitFor({ timeout: 30_000 });
    const accountNumber = (await h.page.locator('#transfer-account').textContent())!;
    expect(accountNumber).toMatch(/^\d{10}$/);
    await expect(h.page.locator('#transfer-bank').textContent()).resolves.toBe('Sandbox Bank');
    await expect(h.page.locator('#transfer-remaining').textContent()).resolves.toMatch(/^(29|30):\d{2}$/);
    await h.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway });
    await h.page.getByRole('button', { name: 'Copy account number' }).click();
    await h.page.locator('#copy-status').filter({ hasText: 'Account number copied.' }).waitFor();
    await expect(h.page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(accountNumber);

    const paid = await h.call('POST', `/sandbox/virtual-accounts/${accountNumber}/credit`, {
      amount: '1234567',
      senderName: 'Ada Obi',
    });
    expect(paid.status).toBe(200);
    await expect(h.result().getByRole('heading').textContent({ timeout: 30_000 })).resolves.toBe('Payment successful');
    await expect(h.page.locator('#result-text').textContent()).resolves.toContain('by bank transfer');
    expect((await h.record(reference)).usedMethod).toBe('pay-with-transfer');
    await screenshot(h.page, 'transfer-success');
  });

  it('pays by QR code: shows the code and completes by itself when the wallet pays', async () => {
    const { link, reference } = await h.createCheckout(['qr-wallet']);
    await h.page.goto(link);
    const image = h.page.getByRole('img', { name: 'QR code to pay ₦12,345.67' });
    await expect(
      image.evaluate((element: HTMLImageElement) => element.decode().then(() => element.naturalWidth)),
    ).resolves.toBeGreaterThan(0);
    const qr = (await h.call('POST', `/checkout/${reference}/qr`)).body.data;
    expect((await h.call('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload })).status).toBe(200);
    await expect(h.result().getByRole('heading').textContent({ timeout: 30_000 })).resolves.toBe('Payment successful');
    await screenshot(h.page, 'qr-success');
  });

  it("tells a live business's customer that no method is available yet, instead of showing details or charging", async () => {
    const live = createPartner('Live Page Partner', ['--live']);
    const created = await callGateway<{ reference: string; link: string }>(live, 'POST', '/payin/charge/requests', {
      amount: '1234567',
      accountName: 'Ada Obi',
      paymentMethod: ['pay-with-transfer', 'qr-wallet', 'card'],
    });
    const { link, reference } = created.body.data;
    // outlet-service hears of the business over Kafka; until then it does not know it at all.
    await eventually(
      async () =>
        (await callGateway(live, 'POST', `/checkout/${reference}/pay-with-transfer`)).status === 403 ? true : undefined,
      30_000,
    );
    await h.page.goto(link);
    const refusal = async (method: string, message: string, hidden: string[]) => {
      await h.page.getByRole('button', { name: method }).click();
      await h.page.getByRole('status').filter({ hasText: message }).waitFor();
      for (const selector of hidden) expect(await h.page.locator(selector).isVisible()).toBe(false);
    };
    await refusal('Bank transfer', 'Bank transfer payments are not available to live businesses yet', [
      '#transfer-details',
    ]);
    await refusal('QR code', 'QR wallet payments are not available to live businesses yet', ['#qr-image', '#qr-steps']);
    await h.page.getByRole('button', { name: 'Card' }).click();
    await h.fillCard(card('no verification'));
    await h.page
      .getByRole('alert')
      .filter({ hasText: 'Card payments are not available to live businesses yet' })
      .waitFor();
    expect(await h.result().isVisible()).toBe(false);
    await screenshot(h.page, 'live-methods-refused');
  });
});
