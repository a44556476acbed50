import { HostedCheckoutView } from '@payments/contracts';

import { PageAssets } from './page-assets';
import { renderCheckoutPage, returnTarget } from './page-html';

const assets = new PageAssets();
const view = (overrides: Partial<HostedCheckoutView> = {}): HostedCheckoutView => ({
  reference: 'CHK-01TEST',
  businessName: 'Ada <script>alert(1)</script> & Sons',
  testMode: false,
  amount: '1234567',
  paymentMethod: ['card'],
  transactionStatus: 'PROCESSING',
  usedMethod: null,
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  returnUrl: null,
  ...overrides,
});

describe('the hosted page markup', () => {
  it('escapes what partners wrote and carries no inline script or style', () => {
    const html = renderCheckoutPage(view({ returnUrl: 'https://shop.example/back?a="><img src=x>' }), assets);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('Ada &#60;script&#62;alert(1)&#60;/script&#62; &#38; Sons');
    expect(html).not.toContain('"><img');
    expect(html).not.toMatch(/<script>|<style|\sstyle="|\son[a-z]+="/);
  });

  it('offers only the methods the checkout allows, with a chooser when there are several', () => {
    const single = renderCheckoutPage(view(), assets);
    expect(single).toContain('id="method-card"');
    expect(single).not.toContain('method-pay-with-transfer');
    expect(single).not.toContain('class="methods"');
    const several = renderCheckoutPage(view({ paymentMethod: ['qr-wallet', 'pay-with-transfer'] }), assets);
    expect(several.match(/data-method="[^"]+"/g)).toEqual([
      'data-method="qr-wallet"',
      'data-method="pay-with-transfer"',
    ]);
    expect(several).not.toContain('id="card-form"');
  });

  it('shows an ended checkout as paid, expired or not completed, with the way back', () => {
    const paid = renderCheckoutPage(
      view({ transactionStatus: 'SUCCESS', usedMethod: 'card', returnUrl: 'https://shop.example/done' }),
      assets,
    );
    expect(paid).toContain('This checkout has been paid');
    expect(paid).toContain('href="https://shop.example/done?reference=CHK-01TEST&#38;status=SUCCESS"');
    expect(paid).not.toContain('card-form');
    const expired = renderCheckoutPage(
      view({ transactionStatus: 'FAILED', expiresAt: new Date(Date.now() - 1000).toISOString() }),
      assets,
    );
    expect(expired).toContain('This checkout has expired');
    const declined = renderCheckoutPage(view({ transactionStatus: 'FAILED', usedMethod: 'card' }), assets);
    expect(declined).toContain('This payment was not completed');
  });

  it('adds the outcome to the merchant return URL, keeping its own query', () => {
    expect(returnTarget('https://shop.example/back?order=42', 'CHK-1', 'FAILED')).toBe(
      'https://shop.example/back?order=42&reference=CHK-1&status=FAILED',
    );
  });
});
