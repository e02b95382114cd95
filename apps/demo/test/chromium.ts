// What the demo's browser tests share: Debian's headless Chromium through playwright-core (and
// why a test skips without it or without the built page), the poll helpers, console error
// collection and the screenshots at 1280 and 375 px in test-artifacts/demo/.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { demoPageDir } from '@scenaro/demo/server';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const artifacts = join(repoRoot, 'test-artifacts', 'demo');
const WIDTHS = [1280, 375] as const;

/** Whether `test` can run here; says loudly why not. */
export function browserTestsRun(test: string): boolean {
  const haveChromium = existsSync(CHROMIUM);
  const built = existsSync(join(demoPageDir(), 'index.html'));
  if (!haveChromium) {
    console.warn(
      `\n*** SKIPPING ${test}: ${CHROMIUM} is missing. Install it with \`apt-get update && apt-get install -y chromium\` (.ci/run does). ***\n`,
    );
  } else if (!built) {
    console.warn(
      `\n*** SKIPPING ${test}: apps/demo/dist/page is missing. Run \`npm run build\` first. ***\n`,
    );
  }
  return haveChromium && built;
}

/** A Chromium with a profile of its own (removed on close), screenshots folder made. */
export async function launchChromium(
  extraArgs: string[] = [],
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'scenaro-demo-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(8000);
  mkdirSync(artifacts, { recursive: true });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Collect the page's console errors and uncaught errors into `errors`. */
export function collectConsoleErrors(page: Page, errors: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
}

/** Poll options: the page answers within milliseconds, CI may be slow. */
export const T = { timeout: 8000, interval: 25 };
export const attribute = (l: Locator, name: string, timeout = T.timeout) =>
  expect.poll(() => l.getAttribute(name), { ...T, timeout });
export const text = (l: Locator, timeout = T.timeout) =>
  expect.poll(() => l.innerText(), { ...T, timeout });
export const count = (l: Locator, timeout = T.timeout) =>
  expect.poll(() => l.count(), { ...T, timeout });
export const focused = (l: Locator) =>
  expect.poll(() => l.evaluate((el) => el === document.activeElement), T).toBe(true);

export async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Screenshot the page at both widths (full page, never wider than the screen), then go back to 1280. */
export async function shoot(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(artifacts, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
