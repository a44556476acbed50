/// <reference lib="dom" />
// page.evaluate callbacks run in the browser, hence the DOM types.
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
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-extensions',
    ],
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

export interface AccessibilityViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core's WCAG 2.1 A/AA rules (labels, contrast, names, landmarks) on the page as it is
 * now. The page's CSP forbids injected scripts, so the context must bypass CSP for the audit.
 */
export async function accessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}
