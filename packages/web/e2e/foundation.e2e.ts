import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, snap } from './helpers/browser.js';
import { type FreshJourney, startFreshJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { ADMIN, setupTokenInLog } from './helpers/session.js';

describe('a newcomer sets up the product and signs in (built product, fresh SQLite)', () => {
  let product: Product;
  let browser: Browser;
  let journey: FreshJourney;

  beforeAll(async () => {
    journey = await startFreshJourney();
    ({ product, browser } = journey);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('is sent to /setup, completes it, and cannot run it twice', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto('/');
    await page.waitForURL('**/setup');
    await page.getByTestId('setup-form').waitFor();
    await expect(page.getByTestId('sqlite-warning').isVisible()).resolves.toBe(true);
    await snap(page, 'foundation-01-setup');

    // The one-time token the product printed to its log at first start, as an operator would copy it.
    const printed = setupTokenInLog(product.output());
    expect(printed).toHaveLength(24);
    await page.getByLabel('设置令牌').fill(`${printed}-wrong`);
    await page.getByLabel('管理员用户名').fill(ADMIN.username);
    await page.getByLabel('密码', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('确认密码').fill(ADMIN.password);
    await page.getByRole('button', { name: '初始化系统' }).click();
    await page.getByText('设置令牌不正确').first().waitFor();
    await snap(page, 'foundation-01b-setup-wrong-token');
    await page.getByLabel('设置令牌').fill(printed);

    await page.getByLabel('密码', { exact: true }).fill('short');
    await page.getByLabel('确认密码').fill('short');
    await page.getByRole('button', { name: '初始化系统' }).click();
    await page.getByText('密码长度不得小于 8 位！').first().waitFor();
    await snap(page, 'foundation-02-setup-validation');

    await page.getByLabel('密码', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('确认密码').fill(ADMIN.password);
    await page.getByRole('button', { name: '初始化系统' }).click();
    // Success reloads to the home page after 1.5 s.
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    await snap(page, 'foundation-03-home-after-setup');

    const again = await page.request.post('/api/setup', {
      data: { username: 'evil', password: 'evil-password', confirmPassword: 'evil-password' },
    });
    expect(await again.json()).toMatchObject({ success: false, message: '系统已经初始化完成' });
    await page.goto('/setup');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('refuses a wrong password with the server’s words, then signs in to the console', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto('/login');
    await page.getByLabel('用户名或邮箱').fill(ADMIN.username);
    await page.getByLabel('密码').fill('not-the-password');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('用户名或密码错误，或用户已被封禁').first().waitFor();
    await snap(page, 'foundation-04-login-wrong-password');

    await page.getByLabel('密码').fill(ADMIN.password);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL('**/token');
    await page.getByTestId('user-menu').waitFor();
    await page.getByTestId('sidebar').waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ username: ADMIN.username, role: 100 });
    await snap(page, 'foundation-05-console');

    // The server ends the session (as a restart with a wiped session store or a ban would): the next call is
    // answered 401 and the console sends the user to /login?expired=true with the spec's message.
    await context.clearCookies();
    await page.goto('/log');
    await page.waitForURL('**/login?expired=true');
    await page.getByTestId('session-expired').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await snap(page, 'foundation-06-session-expired');
    await context.close();
  });

  it('switches language to English and the theme to dark, and stays usable at 375 px', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto('/login');
    await page.getByTestId('language-menu').click();
    await page.getByText('English', { exact: true }).click();
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');
    await page.getByLabel('Username or e-mail').fill(ADMIN.username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    // The console sends Accept-Language, so the server answers in English too.
    await page.getByText('Wrong username or password, or the user is banned').first().waitFor();

    await page.getByTestId('theme-toggle').click();
    expect(await page.evaluate(() => localStorage.getItem('theme-mode'))).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
    expect((r! + g! + b!) / 3).toBeLessThan(80);
    await snap(page, 'foundation-07-login-en-dark');

    const phone = await newPage(browser, product.baseUrl, { width: 375, height: 740 });
    await phone.page.goto('/login');
    await phone.page.getByLabel('用户名或邮箱').fill(ADMIN.username);
    await phone.page.getByLabel('密码').fill(ADMIN.password);
    await phone.page.getByRole('button', { name: '登录', exact: true }).click();
    await phone.page.waitForURL('**/token');
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await phone.page.getByTestId('open-menu').click();
    await phone.page.getByTestId('mobile-nav').waitFor();
    await snap(phone.page, 'foundation-08-phone-menu');
    await phone.context.close();
    await context.close();
  });

  it('follows the browser’s language on a first visit, and switches to 日本語 by the labelled switch', async () => {
    // A browser that prefers Traditional Chinese (Hong Kong) gets 繁體中文 without choosing anything.
    const hk = await newPage(browser, product.baseUrl, { locale: 'zh-HK' });
    await hk.page.goto('/login');
    await hk.page.getByRole('button', { name: '登入', exact: true }).waitFor();
    expect(await hk.page.evaluate(() => localStorage.getItem('i18nextLng'))).toBeNull();
    await hk.context.close();

    // One that names no language of ours gets Chinese.
    const de = await newPage(browser, product.baseUrl, { locale: 'de-DE' });
    await de.page.goto('/login');
    await de.page.getByRole('button', { name: '登录', exact: true }).waitFor();
    await de.context.close();

    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto('/login');
    const language = page.getByTestId('language-menu');
    // The switch says what it does (tooltip) and which language is on (text).
    expect(await language.textContent()).toContain('简体中文');
    await language.hover();
    await page.getByRole('tooltip', { name: '切换语言' }).waitFor();
    await language.click();
    await page.getByRole('menuitem', { name: '日本語' }).click();
    await page.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
    expect(await language.textContent()).toContain('日本語');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('ja');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
    await page.getByLabel('ユーザー名またはメールアドレス').fill(ADMIN.username);
    await page.getByLabel('パスワード').fill('wrong-password');
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    // The server answers in the console's language too.
    await page
      .getByText('ユーザー名またはパスワードが間違っているか、ユーザーが利用停止されています')
      .first()
      .waitFor();
    await snap(page, 'foundation-09-login-ja');

    // The choice is remembered over the browser's own language on the next visit.
    await page.reload();
    await page.getByRole('button', { name: 'ログイン', exact: true }).waitFor();
    await context.close();
  });
});
