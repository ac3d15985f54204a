import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOAuthServer, signTelegramLogin, startFakeOAuth } from '../../server/test/helpers/fake-oauth.js';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

interface StoredUser {
  id: number;
  username: string;
}

const TELEGRAM_BOT_TOKEN = '4242:e2e-telegram-bot';

/**
 * Stands in for telegram.org's widget script (this network cannot reach Telegram): it renders a button where the
 * script tag is and, when pressed, calls the page's `data-onauth` with login data signed like Telegram signs it.
 */
function fakeTelegramWidget(signed: Record<string, string>): string {
  return `(() => {
    const script = document.currentScript;
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Log in as @' + ${JSON.stringify(signed.username ?? '')};
    button.setAttribute('data-testid', 'fake-telegram-button');
    script.parentNode.insertBefore(button, script);
    button.addEventListener('click', () => new Function('user', script.dataset.onauth)(${JSON.stringify(signed)}));
  })();`;
}

const storedUser = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as StoredUser | null);

describe('OIDC sign-in against a local provider (built product, real redirects)', () => {
  let product: Product;
  let browser: Browser;
  let journey: Journey;
  let oidc: FakeOAuthServer;
  let wechat: FakeOAuthServer;
  let api: AdminApi;
  let firstUser: StoredUser;

  beforeAll(async () => {
    oidc = await startFakeOAuth('oidc');
    wechat = await startFakeOAuth('wechat');
    journey = await startJourney({ privateConsole: true });
    ({ product, browser, api } = journey);
    for (const [key, value] of [
      ['fetch_setting.allow_private_ip', 'true'],
      ['oidc.client_id', oidc.clientId],
      ['oidc.client_secret', oidc.clientSecret],
      ['oidc.well_known', oidc.endpoints.wellKnown],
      ['oidc.authorization_endpoint', oidc.endpoints.authorize],
      ['oidc.token_endpoint', oidc.endpoints.token],
      ['oidc.user_info_endpoint', oidc.endpoints.user],
      ['oidc.enabled', 'true'],
      ['QuotaForNewUser', '500000'],
      ['WeChatServerAddress', wechat.baseUrl],
      ['WeChatServerToken', wechat.wechatToken],
      ['WeChatAccountQRCodeImageURL', `${product.baseUrl}/logo.svg`],
      ['WeChatAuthEnabled', 'true'],
      ['TelegramBotName', 'gateway_e2e_bot'],
      ['TelegramBotToken', TELEGRAM_BOT_TOKEN],
      ['TelegramOAuthEnabled', 'true'],
    ]) {
      await api('PUT', '/api/option/', { key, value });
    }
  });
  afterAll(async () => {
    await journey?.close();
    await oidc?.close();
    await wechat?.close();
  });

  it('a newcomer signs in with OIDC: an account is created and the console opens', async () => {
    oidc.person = { id: 'sub-e2e-1', login: 'olga', name: 'Olga OIDC', email: 'olga@example.com' };
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto('/login');
    const button = page.getByRole('button', { name: '使用 OIDC 登录' });
    await button.waitFor();
    await snap(page, 'oauth-01-login-buttons');
    await button.click();
    // Out to the provider (a real 302 from it), back to /oauth/oidc, then into the console.
    await page.waitForURL('**/token');
    await page.getByText('登录成功！').first().waitFor();
    const authorize = oidc.received.find((request) => request.path === '/authorize');
    expect(authorize?.query.code_challenge_method).toBe('S256');
    expect(authorize?.query.redirect_uri).toBe(`${product.baseUrl}/oauth/oidc`);
    const user = await storedUser(page);
    expect(user?.username).toMatch(/^oidc_\d+$/);
    firstUser = user!;
    await snap(page, 'oauth-02-signed-in-token-page');

    const record = await api<{ oidc_id: string; display_name: string; quota: number; email: string }>(
      'GET',
      `/api/user/${firstUser.id}`,
    );
    expect(record).toMatchObject({
      oidc_id: 'sub-e2e-1',
      display_name: 'Olga OIDC',
      quota: 500000,
      email: 'olga@example.com',
    });

    await page.goto('/personal');
    await page.getByTestId('personal-bindings').getByText('sub-e2e-1').waitFor();
    await snap(page, 'oauth-03-personal-bindings');
    await context.close();
  });

  it('the same identity signing in again lands in the same account', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto('/login');
    await page.getByRole('button', { name: '使用 OIDC 登录' }).click();
    await page.waitForURL('**/token');
    expect((await storedUser(page))?.id).toBe(firstUser.id);
    const users = await api<{ items: Array<{ oidc_id: string }> }>('GET', '/api/user/?p=1&page_size=100');
    expect(users.items.filter((user) => user.oidc_id === 'sub-e2e-1')).toHaveLength(1);
    await context.close();
  });

  it('the admin binds an OIDC identity from the personal page', async () => {
    oidc.person = { id: 'sub-admin', login: 'root-at-idp' };
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/personal');
    await page.getByTestId('bind-oidc').click();
    await page.waitForURL('**/personal');
    await page.getByText('OIDC 账户绑定成功！').first().waitFor();
    await page.getByTestId('personal-bindings').getByText('sub-admin').waitFor();
    await snap(page, 'oauth-04-admin-bound');
    await context.close();
  });

  it('a forged callback is refused and explained, in Chinese and in English, dark, on a phone', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto('/oauth/oidc?code=stolen-code&state=forged-state');
    await page.getByTestId('oauth-callback-error').getByText('state 无效或已过期，请重新发起登录').waitFor();
    await snap(page, 'oauth-05-callback-refused');
    expect(await storedUser(page)).toBeNull();
    await context.close();

    const phone = await newPage(browser, product.baseUrl, { width: 375, height: 812, locale: 'en-US' });
    await phone.page.addInitScript(() => {
      localStorage.setItem('i18nextLng', 'en');
      localStorage.setItem('theme-mode', 'dark');
    });
    await phone.page.goto('/oauth/oidc?code=stolen-code&state=forged-state');
    await phone.page
      .getByTestId('oauth-callback-error')
      .getByText('The state is invalid or has expired, please start the sign-in again')
      .waitFor();
    await snap(phone.page, 'oauth-06-callback-refused-en-dark-375');
    await phone.page.getByRole('button', { name: 'Back to sign-in' }).click();
    await phone.page.waitForURL('**/login');
    await phone.page.getByRole('button', { name: 'Continue with OIDC' }).waitFor();
    await snap(phone.page, 'oauth-07-login-en-dark-375');
    await phone.page.getByRole('button', { name: 'Continue with WeChat' }).click();
    await phone.page.getByRole('dialog').getByRole('button', { name: 'Sign in' }).waitFor();
    await snap(phone.page, 'oauth-07b-wechat-dialog-en-dark-375');
    await phone.context.close();
  });

  it('signs in with the WeChat verification code typed into the QR dialog', async () => {
    wechat.wechatCodes.set('246810', 'openid-e2e');
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto('/login');
    await page.getByRole('button', { name: '使用微信登录' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('img', { name: '微信公众号二维码' }).waitFor();
    await dialog.getByRole('button', { name: '登录' }).click();
    await page.getByText('请输入验证码').first().waitFor();
    await dialog.getByLabel('验证码').fill('246810');
    await snap(page, 'oauth-08-wechat-dialog');
    await dialog.getByRole('button', { name: '登录' }).click();
    await page.waitForURL('**/token');
    expect((await storedUser(page))?.username).toMatch(/^wechat_\d+$/);
    await context.close();
  });

  it('binds Telegram from the personal page through the login widget', async () => {
    const signed = signTelegramLogin(
      { id: '7007', first_name: 'Root', username: 'root_tg', auth_date: String(Math.floor(Date.now() / 1000)) },
      TELEGRAM_BOT_TOKEN,
    );
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.route('https://telegram.org/**', (route) =>
      route.fulfill({ contentType: 'application/javascript', body: fakeTelegramWidget(signed) }),
    );
    await signIn(page);
    await page.goto('/personal');
    await page.getByTestId('bind-telegram').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('fake-telegram-button').waitFor();
    await snap(page, 'oauth-09-telegram-dialog', { fullPage: false });
    await dialog.getByTestId('fake-telegram-button').click();
    await page.getByText('Telegram 账户绑定成功！').first().waitFor();
    await page.getByTestId('personal-bindings').getByText('7007').waitFor();
    await context.close();
  });
});
