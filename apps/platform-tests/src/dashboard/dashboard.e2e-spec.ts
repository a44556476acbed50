import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { Secret, TOTP } from 'otpauth';
import { Browser, BrowserContext, Page } from 'playwright-core';

import { appPorts, npmRun, repoRoot, useApps } from '../apps';
import { accessibilityViolations, launchBrowser } from '../browser';

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
  useApps(['checkout-gateway']);
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(() => browser?.close());

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
