import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { signIn } from './helpers/session.js';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

const PUBLIC_PAGES = ['/', '/login', '/register', '/reset', '/pricing', '/about'];
const CONSOLE_PAGES = [
  '/token',
  '/playground',
  '/log',
  '/detail',
  '/midjourney',
  '/task',
  '/topup',
  '/personal',
  '/chat/0',
  '/channel',
  '/channel/add',
  '/redemption',
  '/user',
  '/setting',
  '/setting?tab=ratelimit',
  '/setting?tab=models',
  '/setting?tab=system',
  '/setting?tab=other',
  '/pricing',
  '/about',
];

/** Records every policy violation the page reports, from its first script on. */
async function watchPolicy(page: Page): Promise<string[]> {
  const reported: string[] = [];
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations!.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) reported.push(message.text());
  });
  return reported;
}

// The console works under its Content-Security-Policy: every page, signed out and as the admin, loads with no
// violation reported, and the HTML carries the baseline headers.
describe('the console under its security headers (built product)', () => {
  let product: Product;
  let browser: Browser;
  let journey: Journey;

  beforeAll(async () => {
    journey = await startJourney();
    ({ product, browser } = journey);
    // A chat front-end to frame on /chat/0 (its origin must be allowed, though nothing answers there offline).
    await journey.api('PUT', '/api/option/', {
      key: 'Chats',
      value: JSON.stringify([
        { 'Next Chat': 'https://chat.example.com/#/?settings={"key":"{key}","url":"{address}"}' },
      ]),
    });
    // A token, so the chat page frames the front-end instead of asking for one.
    await journey.api('POST', '/api/token/', { name: 'chat', unlimited_quota: true });
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('serves pages with the policy and the baseline headers', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    const response = await page.goto('/');
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(headers['content-security-policy']).toContain('https://chat.example.com');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    await context.close();
  });

  it('reports no policy violation on any page, signed out or as the admin', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    const consoleReports = await watchPolicy(page);
    const visit = async (path: string) => {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const violations = await page.evaluate(() => window.__cspViolations ?? []);
      expect(violations, `${path}: ${violations.join('; ')}`).toEqual([]);
    };
    for (const path of PUBLIC_PAGES) await visit(path);
    await signIn(page);
    for (const path of CONSOLE_PAGES) await visit(path);
    await snap(page, 'security-01-about-under-csp');
    // Dark mode and English go through the same policy.
    await page.evaluate(() => {
      localStorage.setItem('theme-mode', 'dark');
      localStorage.setItem('i18nextLng', 'en');
    });
    for (const path of ['/token', '/detail', '/setting']) await visit(path);
    await snap(page, 'security-02-settings-dark-en');
    expect(consoleReports).toEqual([]);
    await context.close();
  });
});
