import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { repoRoot } from './apps';

/** Debian's chromium, which `npm test` installs when it is missing. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots of each flow's final screen, for people to look at (git-ignored). */
export const screenshotDir = join(repoRoot, 'artifacts', 'hosted-checkout');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run', '--disable-extensions'],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/** Every request a page makes, with its transferred size once it has finished. */
export function recordRequests(page: Page): { url: string; method: string; bytes: number; postData: string | null }[] {
  const seen: { url: string; method: string; bytes: number; postData: string | null }[] = [];
  page.on('requestfinished', async (request) => {
    const entry = { url: request.url(), method: request.method(), bytes: 0, postData: request.postData() };
    seen.push(entry);
    const sizes = await request.sizes().catch(() => null);
    if (sizes) entry.bytes = sizes.responseHeadersSize + sizes.responseBodySize;
  });
  return seen;
}
