import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../server/test/helpers/databases.js';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';
import { type ConsoleTexts, consoleTexts } from './helpers/texts.js';

const dialects = await availableDialects();
const ALICE = { username: 'alice', password: 'alice-password-1' };

/**
 * WebAuthn needs a domain for its relying party (never an IP address), so the browser opens the product as
 * localhost; the server then takes localhost as the RP ID and http://localhost:<port> as the origin by itself.
 */
const localhost = (product: Product) => product.baseUrl.replace('127.0.0.1', 'localhost');

/** Chromium's virtual authenticator (CDP WebAuthn domain): a platform passkey that verifies the user by itself. */
async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

describe.each(dialects)('passkeys, on %s (built product)', (dialect) => {
  let database: TestDatabase | null = null;
  let journey: Journey;
  let product: Product;
  let browser: Browser;
  let api: AdminApi;
  let texts: ConsoleTexts;
  let aliceId = 0;
  const pictures = dialect === 'sqlite';

  beforeAll(async () => {
    texts = await consoleTexts('zh');
    if (dialect !== 'sqlite') database = await createTestDatabase(dialect);
    journey = await startJourney({ env: database ? { SQL_DSN: database.env.SQL_DSN } : {} });
    ({ product, browser, api } = journey);
    await api('POST', '/api/user/', { ...ALICE, display_name: 'Alice' });
    const found = await api<{ items: Array<{ id: number; username: string }> }>(
      'GET',
      '/api/user/search?keyword=alice',
    );
    aliceId = found.items.find((row) => row.username === 'alice')!.id;
  }, 90_000);
  afterAll(async () => {
    await journey?.close();
    await database?.drop();
  });

  it('the admin turns passkeys on in the system settings', async () => {
    const { context, page } = await newPage(browser, localhost(product));
    await signIn(page);
    await page.goto('/setting?tab=system');
    const section = page.getByTestId('section-passkey');
    await section.waitFor();
    await section.getByRole('switch').first().click();
    await section.getByRole('button', { name: '保存' }).click();
    await expect
      .poll(async () => (await api<{ passkey_login: boolean }>('GET', '/api/status')).passkey_login)
      .toBe(true);
    if (pictures) {
      await section.scrollIntoViewIfNeeded();
      await snap(page, 'passkeys-01-settings', { fullPage: false });
    }
    await context.close();
  });

  it('Alice adds a passkey, signs out and signs back in with it alone', async () => {
    const { context, page } = await newPage(browser, localhost(product));
    const authenticator = await addVirtualAuthenticator(context, page);
    await signIn(page, ALICE);
    await page.goto('/personal');
    const card = page.getByTestId('passkeys-card');
    await card.getByText(texts.t('passkey.empty')).waitFor();
    if (pictures) {
      await card.scrollIntoViewIfNeeded();
      await snap(page, 'passkeys-02-empty', { fullPage: false });
    }

    await card.getByRole('button', { name: texts.t('passkey.add') }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(texts.t('passkey.name')).fill('Work laptop');
    await dialog.getByRole('button', { name: texts.t('passkey.continue') }).click();
    const item = card.getByTestId('passkey-item');
    await item.getByText('Work laptop').waitFor();
    await item.getByText(texts.t('passkey.never_used'), { exact: false }).waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);
    if (pictures) await snap(page, 'passkeys-03-added', { fullPage: false });

    // Sign out: the session ends and the console forgets the user.
    await page.request.get('/api/user/logout');
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login?lng=zh');
    const passkeyButton = page.getByRole('button', { name: texts.t('passkey.sign_in') });
    await passkeyButton.waitFor();
    if (pictures) await snap(page, 'passkeys-04-login', { fullPage: false });
    await passkeyButton.click();
    await page.waitForURL('**/token');
    const self = await page.request
      .get('/api/user/self', { headers: { 'new-api-user': String(aliceId) } })
      .then((response) => response.json() as Promise<{ success: boolean; data: { username: string } }>);
    expect(self).toMatchObject({ success: true, data: { username: 'alice' } });

    await page.goto('/personal');
    await card.getByText(/上次使用/).waitFor();
    if (pictures) {
      await card.scrollIntoViewIfNeeded();
      await snap(page, 'passkeys-05-used', { fullPage: false });
    }
    await context.close();
  });

  it('on a phone in dark mode the card lists the passkey, and the admin can reset it', async () => {
    const { context, page } = await newPage(browser, localhost(product), { width: 375, height: 812 });
    await context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(page, ALICE);
    await page.goto('/personal');
    const card = page.getByTestId('passkeys-card');
    await card.getByText('Work laptop').waitFor();
    if (pictures) {
      await card.scrollIntoViewIfNeeded();
      await snap(page, 'passkeys-06-phone-dark', { fullPage: false });
    }
    await context.close();

    // The admin resets Alice's passkeys from her edit drawer in the users page.
    const admin = await newPage(browser, localhost(product));
    await signIn(admin.page);
    await admin.page.goto('/user');
    const row = admin.page.locator('tr', { hasText: 'alice' }).first();
    await row.getByRole('button', { name: texts.t('ui.edit') }).click();
    const reset = admin.page.getByTestId('passkey-reset');
    await reset.waitFor();
    await reset.click();
    const confirm = admin.page.locator('.ant-modal-confirm');
    if (pictures) await snap(admin.page, 'passkeys-07-admin-reset', { fullPage: false });
    await confirm.getByRole('button', { name: texts.t('passkey.reset') }).click();
    await admin.page.getByText('Passkey 已重置').waitFor();
    await expect(api('DELETE', `/api/user/${aliceId}/reset_passkey`, {})).rejects.toThrow('该用户尚未绑定 Passkey');
    await admin.context.close();
  });
});
