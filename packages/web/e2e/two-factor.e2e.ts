import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../server/test/helpers/databases.js';
import { totpCode } from '../../server/test/helpers/totp.js';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';
import { type ConsoleTexts, consoleTexts } from './helpers/texts.js';

const TINA = { username: 'tina', password: 'tina-password-1' };

/** A real code of the key the page showed (see totpCode for why sign-ins use the next period). */
const codeOf = totpCode;
const dialects = await availableDialects();

describe.each(dialects)('two-factor sign-in, set up and used in the browser, on %s (built product)', (dialect) => {
  let database: TestDatabase | null = null;
  let journey: Journey;
  let product: Product;
  let browser: Browser;
  let api: AdminApi;
  let zh: ConsoleTexts;
  let secret = '';
  let backupCodes: string[] = [];
  // Pictures of one engine are enough: the pages are the same on all three.
  const shot: typeof snap = dialect === 'sqlite' ? snap : async () => {};

  beforeAll(async () => {
    if (dialect !== 'sqlite') database = await createTestDatabase(dialect);
    journey = await startJourney({ env: database ? { SQL_DSN: database.env.SQL_DSN } : {} });
    ({ product, browser, api } = journey);
    zh = await consoleTexts('zh');
    await api('POST', '/api/user/', { ...TINA, display_name: TINA.username });
  }, 90_000);
  afterAll(async () => {
    await journey?.close();
    await database?.drop();
  });

  const signOut = async (page: Page) => {
    await page.getByTestId('user-menu').click();
    await page.getByText(zh.t('header.logout'), { exact: true }).click();
    await page.waitForURL('**/login**');
  };

  /** The login page's first step, ending on the second one. */
  const passwordStep = async (page: Page) => {
    await page.goto('/login?lng=zh');
    await page.getByLabel(zh.t('login.username')).fill(TINA.username);
    await page.getByLabel(zh.t('login.password')).fill(TINA.password);
    await page.getByRole('button', { name: zh.t('login.submit'), exact: true }).click();
    await page.getByTestId('login-2fa-form').waitFor();
  };

  const secondStep = async (page: Page, code: string) => {
    await page.getByTestId('login-2fa-code').fill(code);
    await page.getByRole('button', { name: zh.t('two_factor.login_submit'), exact: true }).click();
    await page.waitForURL('**/token');
  };

  it('sets it up on the personal page: QR code, key and backup codes shown once, on after a right code', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page, TINA);
    await page.goto('/personal');
    const card = page.getByTestId('two-factor-card');
    await expect.poll(() => card.getByTestId('two-factor-state').textContent()).toBe(zh.t('two_factor.off'));
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'two-factor-01-off', { fullPage: false });

    await card.getByTestId('two-factor-start').click();
    await card.getByTestId('two-factor-setup').waitFor();
    // The QR code is drawn in the page (a canvas), from no outside service.
    await expect.poll(() => card.getByTestId('two-factor-qr').locator('canvas').count()).toBe(1);
    secret = /[A-Z2-7]{32}/.exec((await card.getByTestId('two-factor-secret').textContent()) ?? '')?.[0] ?? '';
    expect(secret).toHaveLength(32);
    backupCodes = await card.getByTestId('two-factor-backup-code').allTextContents();
    expect(backupCodes).toHaveLength(10);
    await card.getByTestId('two-factor-setup').scrollIntoViewIfNeeded();
    await shot(page, 'two-factor-02-setup');

    // A wrong code is refused and nothing is on.
    await card.getByTestId('two-factor-enable-code').fill(codeOf(secret, -5));
    await card.getByTestId('two-factor-enable').click();
    await page.getByText('验证码或备用码错误，请重试').first().waitFor();
    expect((await api<{ items: unknown[] }>('GET', '/api/user/2fa/stats')) as unknown).toMatchObject({
      enabled_users: 0,
    });

    await card.getByTestId('two-factor-enable-code').fill(codeOf(secret));
    await card.getByTestId('two-factor-enable').click();
    await expect.poll(() => card.getByTestId('two-factor-state').textContent()).toBe(zh.t('two_factor.on'));
    await expect
      .poll(() => card.getByTestId('two-factor-remaining').textContent())
      .toBe(zh.t('two_factor.backup_remaining', { count: 10 }));
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'two-factor-03-on', { fullPage: false });
    await signOut(page);
    await context.close();
  });

  it('signs in with the password and then a code from the authenticator', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await passwordStep(page);
    await shot(page, 'two-factor-04-second-step');
    // No session yet: the console's pages still send to the login page.
    const self = await page.request.get('/api/user/self');
    expect(self.status()).toBe(401);
    await secondStep(page, codeOf(secret, 1));
    await signOut(page);
    await context.close();
  });

  it('signs in with a backup code, once; the personal page counts one code fewer (at 375 px, dark)', async () => {
    const { context, page } = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await passwordStep(page);
    await secondStep(page, backupCodes[0]!);
    await page.goto('/personal');
    const card = page.getByTestId('two-factor-card');
    await expect
      .poll(() => card.getByTestId('two-factor-remaining').textContent())
      .toBe(zh.t('two_factor.backup_remaining', { count: 9 }));
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'two-factor-05-mobile-dark', { fullPage: false });
    await signOut(page);

    await passwordStep(page);
    await page.getByTestId('login-2fa-code').fill(backupCodes[0]!);
    await page.getByRole('button', { name: zh.t('two_factor.login_submit'), exact: true }).click();
    await page.getByText('验证码或备用码错误，请重试').first().waitFor();
    expect(page.url()).toContain('/login');
    await context.close();
  });

  it('the admin resets it from the users page; the password alone signs in again', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/user');
    const row = page.locator('tr', { hasText: TINA.username });
    await row.getByRole('button', { name: zh.t('users.more_actions') }).click();
    await page.getByText(zh.t('two_factor.reset'), { exact: true }).click();
    await shot(page, 'two-factor-06-admin-reset', { fullPage: false });
    await page.getByRole('button', { name: zh.t('two_factor.reset'), exact: true }).click();
    await page
      .getByText(zh.t('two_factor.reset_done', { name: TINA.username }))
      .first()
      .waitFor();
    const audit = await api<{ items: Array<{ action: string; target_id: string }> }>('GET', '/api/audit/?page_size=50');
    expect(audit.items.map((item) => item.action)).toContain('user.2fa_disable');
    await context.close();

    const fresh = await newPage(browser, product.baseUrl);
    await signIn(fresh.page, TINA);
    await fresh.context.close();
  });

  it('with AdminTwoFARequired, an admin without 2FA is asked on every page to set it up', async () => {
    // Root sets up its own first (through the API): the admin routes would refuse root too otherwise.
    const rootSetup = await api<{ secret: string }>('POST', '/api/user/2fa/setup', {});
    await api('POST', '/api/user/2fa/enable', { code: codeOf(rootSetup.secret) });
    await api('PUT', '/api/option/', { key: 'AdminTwoFARequired', value: 'true' });
    const ADAM = { username: 'adam', password: 'adam-password-1' };
    await api('POST', '/api/user/', { ...ADAM, display_name: ADAM.username });
    const found = await api<{ items: Array<{ id: number; username: string }> }>('GET', '/api/user/search?keyword=adam');
    const adamId = found.items.find((row) => row.username === ADAM.username)!.id;
    await api('POST', '/api/user/manage', { id: adamId, action: 'promote' });

    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page, ADAM);
    await page.getByTestId('two-factor-required-banner').waitFor();
    await shot(page, 'two-factor-07-admin-asked', { fullPage: false });
    await page.getByTestId('two-factor-required-banner').getByRole('button').click();
    await page.waitForURL('**/personal');
    await page.getByTestId('two-factor-required').waitFor();
    await context.close();
    await api('PUT', '/api/option/', { key: 'AdminTwoFARequired', value: 'false' });
  });
});
