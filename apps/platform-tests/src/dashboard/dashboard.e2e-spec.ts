import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { TransactionResponse } from '@payments/contracts';
import { eventually } from '@payments/testing';
import { Secret, TOTP } from 'otpauth';
import { Browser, BrowserContext, Page } from 'playwright-core';

import { allApps, appPorts, npmRun, repoRoot, useApps } from '../apps';
import { accessibilityViolations, launchBrowser } from '../browser';
import { callGateway, createCheckout, createPartner, onboardedPartner, PartnerCredentials } from '../partners';
import { RecordingReceiver } from '../receiver';

jest.setTimeout(120_000);

/** On localhost, which browsers treat as secure: the dashboard's __Host- cookies need it. */
const dashboard = `http://localhost:${appPorts['checkout-gateway']}/dashboard`;
const screenshots = join(repoRoot, 'artifacts', 'dashboard');
const viewports = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;
const password = 'a long and private passphrase';

/** The page at both widths, kept for people to look at (git-ignored), and its serious accessibility faults. */
async function look(page: Page, name: string): Promise<string[]> {
  mkdirSync(screenshots, { recursive: true });
  for (const [width, size] of Object.entries(viewports)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(screenshots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(viewports.desktop);
  const violations = await accessibilityViolations(page);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${name}: ${violation.id} (${violation.targets.join(', ')})`);
}

describe('the dashboard in a browser', () => {
  // Every app: the money the pages show comes through the same flows as the API's. The webhook
  // receiver listens on loopback, as a developer's would.
  const receiver = new RecordingReceiver();
  const loopbackWebhooks = { WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' };
  useApps(allApps, { 'checkout-gateway': loopbackWebhooks, 'webhook-dispatcher': loopbackWebhooks });
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    await receiver.start();
  });

  afterAll(async () => {
    receiver.stop();
    await browser?.close();
  });

  beforeEach(async () => {
    // axe is injected into pages whose policy allows no script.
    context = await browser.newContext({ viewport: viewports.desktop, bypassCSP: true });
    page = await context.newPage();
  });

  afterEach(() => context.close());

  it('signs the owner up from the link, sets up an authenticator, and signs in with it', async () => {
    const email = `owner-${Date.now()}@dashboard.example`;
    const created = npmRun('partner:create', [
      '--name',
      'Browser Ltd',
      '--owner-email',
      email,
      '--json',
      '--wait-seconds',
      '0',
    ]);
    expect(created.status).toBe(0);
    const link = new URL((JSON.parse(created.stdout) as { ownerSignUpLink: string }).ownerSignUpLink);
    const faults: string[] = [];

    await page.goto(`${dashboard}/sign-up${link.search}`);
    await expect(page.getByRole('heading', { name: 'Join Browser Ltd' }).isVisible()).resolves.toBe(true);
    faults.push(...(await look(page, 'sign-up')));
    await page.getByLabel('Password (at least 12 characters)').fill(password);
    await page.getByLabel('Password again').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: `Signed in as ${email}` }).waitFor();
    faults.push(...(await look(page, 'home')));

    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.locator('#secret').innerText()).replace(/\s/g, '');
    faults.push(...(await look(page, 'two-factor-set-up')));
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    await page.getByLabel('The six-digit code your app shows').fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.locator('#two-factor-status').innerText()).resolves.toContain('Two-factor sign-in is on');
    faults.push(...(await look(page, 'security')));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    faults.push(...(await look(page, 'sign-in')));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    faults.push(...(await look(page, 'two-factor-code')));
    // The next step's code: the one that turned the factor on cannot sign in again.
    await page.getByLabel('Code', { exact: true }).fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Signed in as ${email}` }).waitFor();

    // The owner invites a viewer, who joins from the link and changes nothing.
    const viewerEmail = `viewer-${Date.now()}@dashboard.example`;
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('Email', { exact: true }).fill(viewerEmail);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const invitation = new URL(await page.locator('#invitation-link').innerText());
    faults.push(...(await look(page, 'team')));
    const viewerContext = await browser.newContext({ viewport: viewports.desktop, bypassCSP: true });
    const viewer = await viewerContext.newPage();
    await viewer.goto(`${dashboard}/sign-up${invitation.search}`);
    await viewer.getByLabel('Password (at least 12 characters)').fill(password);
    await viewer.getByLabel('Password again').fill(password);
    await viewer.getByRole('button', { name: 'Create account' }).click();
    await viewer.getByRole('heading', { name: `Signed in as ${viewerEmail}` }).waitFor();
    await viewer.getByRole('link', { name: 'Team' }).click();
    await expect(viewer.getByRole('cell', { name: viewerEmail }).isVisible()).resolves.toBe(true);
    await expect(viewer.getByRole('button', { name: 'Create invitation link' }).count()).resolves.toBe(0);
    await expect(viewer.getByRole('button', { name: /Remove/ }).count()).resolves.toBe(0);
    await viewerContext.close();

    expect(faults).toEqual([]);
  });

  it('finds a payment, refunds it, and follows the refund to its webhook, sent again', async () => {
    const email = `finance-${Date.now()}@dashboard.example`;
    const partner = await onboardedPartner('Ledger Ltd', ['--owner-email', email, '--webhook-url', receiver.url]);
    const reference = await createCheckout(partner, ['card'], '250000', 'Ledger Shop');
    const paid = await callGateway(partner, 'POST', `/checkout/${reference}/card-payment`, {
      cardNumber: '5060990000000000019',
      expiryDate: '12/30',
      cvv: '123',
    });
    expect(paid.body.data).toMatchObject({ transactionStatus: 'SUCCESS' });
    await eventually(async () => {
      const listed = await callGateway<TransactionResponse>(partner, 'GET', `/transactions/${reference}`);
      return listed.status === 200 ? true : undefined;
    }, 30_000);
    const faults: string[] = [];

    await signUp(page, partner, email);
    faults.push(...(await look(page, 'overview')));
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByLabel('Reference').fill(reference);
    await page.getByRole('button', { name: 'Filter' }).click();
    faults.push(...(await look(page, 'transactions')));
    await page.getByRole('link', { name: reference }).click();
    await page.getByRole('heading', { name: `Transaction ${reference}` }).waitFor();
    await expect(page.locator('.details').innerText()).resolves.toContain('₦2,500.00');
    faults.push(...(await look(page, 'transaction')));

    // A partial refund, confirmed: the API's refund, PENDING at once.
    await page.getByLabel(/^Amount in naira/).fill('1,000');
    await page.getByLabel('Reason (optional)').fill('Returned');
    await page.getByRole('button', { name: 'Review the refund' }).click();
    await page.getByRole('heading', { name: `Refund ₦1,000.00 of ${reference}?` }).waitFor();
    faults.push(...(await look(page, 'refund-confirmation')));
    const confirmation = Object.fromEntries(
      await page
        .locator('form[action="/dashboard/refunds"] input')
        .evaluateAll((inputs) =>
          inputs.map((input) => [(input as HTMLInputElement).name, (input as HTMLInputElement).value]),
        ),
    ) as Record<string, string>;
    await page.getByRole('button', { name: 'Refund ₦1,000.00' }).click();
    await page.waitForURL(/\/dashboard\/refunds\//);
    await expect(page.locator('.details').innerText()).resolves.toContain('₦1,000.00');
    faults.push(...(await look(page, 'refund')));
    // The same confirmation posted again (a double click, a retry): the same refund, not another.
    const again = await page.request.post(`${dashboard}/refunds`, {
      form: confirmation,
      headers: { origin: new URL(dashboard).origin },
      maxRedirects: 0,
    });
    expect([again.status(), again.headers().location]).toEqual([303, new URL(page.url()).pathname]);
    const refunds = await callGateway<{ items: { amount: string }[] }>(
      partner,
      'GET',
      `/refunds?transactionReference=${reference}`,
    );
    expect(refunds.body.data.items.map((refund) => refund.amount)).toEqual(['100000']);

    // The refund's webhook reached the endpoint; the delivery is shown with its attempt, and sent again.
    await eventually(async () => (receiver.got('refund.pending') ? true : undefined), 30_000);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'refund.pending' }).first().click();
    await page.getByRole('heading', { name: 'Delivery of refund.pending' }).waitFor();
    faults.push(...(await look(page, 'webhook-delivery')));
    const deliveredBefore = receiver.bodies.filter((body) => body.includes('"refund.pending"')).length;
    const original = page.url();
    await page.getByRole('button', { name: 'Send it again' }).click();
    await page.waitForURL((url) => url.pathname.includes('/deliveries/') && url.toString() !== original);
    await eventually(
      async () =>
        receiver.bodies.filter((body) => body.includes('"refund.pending"')).length > deliveredBefore ? true : undefined,
      30_000,
    );
    await page.getByRole('link', { name: 'Webhooks' }).click();
    faults.push(...(await look(page, 'webhooks')));

    // Another business's owner finds nothing of this payment, whatever the address.
    const strangerEmail = `stranger-${Date.now()}@dashboard.example`;
    const stranger = createPartner('Stranger Ltd', ['--owner-email', strangerEmail]);
    const strangerContext = await browser.newContext({ viewport: viewports.desktop, bypassCSP: true });
    const strangerPage = await strangerContext.newPage();
    await signUp(strangerPage, stranger, strangerEmail);
    const response = await strangerPage.goto(`${dashboard}/transactions/${reference}`);
    expect(response?.status()).toBe(404);
    await expect(strangerPage.getByRole('heading', { name: 'Transaction not found' }).isVisible()).resolves.toBe(true);
    await strangerPage.goto(`${dashboard}/transactions?reference=${reference}`);
    await expect(strangerPage.locator('#none').isVisible()).resolves.toBe(true);
    await strangerContext.close();

    expect(faults).toEqual([]);
  });

  it('works from the keyboard alone: sign in is reached and submitted without a pointer', async () => {
    await page.goto(`${dashboard}/sign-in`);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('email');
    await page.keyboard.type('nobody@dashboard.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type('not the password of anyone');
    await page.keyboard.press('Enter');
    await expect(page.locator('#problem').innerText()).resolves.toContain('do not match an account');
  });
});

/** The owner of `partner` signs up from the link partner:create printed, in `page`. */
async function signUp(page: Page, partner: PartnerCredentials, email: string): Promise<void> {
  const link = new URL((partner as PartnerCredentials & { ownerSignUpLink: string }).ownerSignUpLink);
  await page.goto(`${dashboard}/sign-up${link.search}`);
  await page.getByLabel('Password (at least 12 characters)').fill(password);
  await page.getByLabel('Password again').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: `Signed in as ${email}` }).waitFor();
}
