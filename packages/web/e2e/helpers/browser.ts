import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const SCREENSHOTS = resolve(import.meta.dirname, '../../../../test-artifacts/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this closed network needs (see shared/testing.md). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  options: { width?: number; height?: number; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    locale: options.locale ?? 'zh-CN',
    viewport: { width: options.width ?? 1366, height: options.height ?? 860 },
  });
  const page = await context.newPage();
  return { context, page };
}

/** Saves a full-page screenshot under test-artifacts/screenshots (git-ignored) for a person to look at. */
export async function snap(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Let theme and drawer transitions (antd: 0.2-0.3 s) finish so the picture shows the settled page.
  await page.waitForTimeout(350);
  // fullPage: false for open dialogs: a full-page shot resizes the viewport for a moment, which some dialogs
  // (widgets in their own frame) do not survive.
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}
