import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTurnstile, startFakeTurnstile } from '../../server/test/helpers/fake-turnstile.js';
import { codeFrom, resetLinkFrom, smtpOptions } from '../../server/test/helpers/mailbox.js';
import { type ReceivedMail, startSmtpReceiver } from '../../server/test/helpers/smtp.js';
import { newPage, snap } from './helpers/browser.js';
import { copyAndReadClipboard } from './helpers/copy.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { ADMIN, type AdminApi, adminApi, signIn } from './helpers/session.js';

const TURNSTILE_SECRET = 'e2e-turnstile-secret';
const HUMAN_TOKEN = 'e2e-human-token';

/**
 * Stands in for Cloudflare's script (the browser cannot reach it here): a button that "solves" the check and
 * hands the page a token the fake siteverify accepts, with the explicit-render API the console calls.
 */
const FAKE_TURNSTILE_SCRIPT = `
window.turnstile = (() => {
  const widgets = new Map();
  let next = 0;
  return {
    render(container, params) {
      const id = 'w' + next++;
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Verify you are human';
      button.onclick = () => { button.textContent = 'Verified'; params.callback(${JSON.stringify(HUMAN_TOKEN)}); };
      container.appendChild(button);
      widgets.set(id, button);
      return id;
    },
    reset(id) { const button = widgets.get(id); if (button) button.textContent = 'Verify you are human'; },
    remove(id) { widgets.get(id)?.remove(); widgets.delete(id); },
  };
})();
`;

async function withFakeTurnstile(page: Page): Promise<void> {
  await page.route('https://challenges.cloudflare.com/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: FAKE_TURNSTILE_SCRIPT }),
  );
}

describe('accounts: register with a mailed code, reset a password, a ban, personal settings (built product)', () => {
  let product: Product;
  let browser: Browser;
  let journey: Journey;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let turnstile: FakeTurnstile;
  let api: AdminApi;

  const setOptions = async (options: [string, string][]) => {
    for (const [key, value] of options) await api('PUT', '/api/option/', { key, value });
  };
  const mailTo = async (email: string, count: number): Promise<ReceivedMail> => {
    await expect
      .poll(() => smtp.mails.filter((mail) => mail.to.includes(email)).length, { timeout: 10_000 })
      .toBe(count);
    return smtp.mails.filter((mail) => mail.to.includes(email)).at(-1)!;
  };
  const findUser = async (username: string) => {
    const page = await api<{ items: Array<Record<string, unknown> & { id: number; username: string }> }>(
      'GET',
      `/api/user/search?keyword=${username}`,
    );
    return page.items.find((user) => user.username === username)!;
  };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    turnstile = await startFakeTurnstile(TURNSTILE_SECRET);
    turnstile.validTokens.add(HUMAN_TOKEN);
    journey = await startJourney({ env: { TURNSTILE_VERIFY_URL: turnstile.url } });
    ({ product, browser, api } = journey);
    await setOptions([...smtpOptions(smtp.port), ['ServerAddress', product.baseUrl]]);
  });
  afterAll(async () => {
    await journey?.close();
    await smtp?.close();
    await turnstile?.close();
  });

  it('a visitor follows an invite link, registers with the e-mailed code and signs in', async () => {
    await setOptions([
      ['EmailVerificationEnabled', 'true'],
      ['QuotaForNewUser', '500000'],
      ['QuotaForInviter', '1000000'],
      ['QuotaForInvitee', '250000'],
    ]);
    const aff = await api<string>('GET', '/api/user/aff');
    const { context, page } = await newPage(browser, product.baseUrl);
    await page.goto(`/register?aff=${aff}`);
    const form = page.getByTestId('register-form');
    await form.waitFor();
    await form.getByLabel('用户名', { exact: true }).fill('newcomer');
    await form.getByLabel('密码', { exact: true }).fill('newcomer-pass-1');
    await form.getByLabel('确认密码').fill('other-pass-12');
    await form.getByRole('button', { name: '注册', exact: true }).click();
    await page.getByText('两次输入的密码不一致').first().waitFor();
    await form.getByLabel('确认密码').fill('newcomer-pass-1');
    await form.getByLabel('邮箱').fill('newcomer@example.com');
    await snap(page, 'accounts-01-register-form');

    await form.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText('验证码发送成功，请检查你的邮箱！').first().waitFor();
    const countdown = form.getByRole('button', { name: /重新发送 \(\d+\)/ });
    expect(await countdown.isDisabled()).toBe(true);
    await snap(page, 'accounts-02-code-sent');
    const code = codeFrom(await mailTo('newcomer@example.com', 1));
    await form.getByLabel('验证码').fill(code);
    await form.getByRole('button', { name: '注册', exact: true }).click();
    await page.waitForURL('**/login');
    await page.getByText('注册成功！').first().waitFor();

    await signIn(page, { username: 'newcomer', password: 'newcomer-pass-1' });
    const admin = await findUser(ADMIN.username);
    expect(await findUser('newcomer')).toMatchObject({
      email: 'newcomer@example.com',
      inviter_id: admin.id,
      quota: 750000,
    });
    expect(admin).toMatchObject({ aff_count: 1, aff_quota: 1000000 });
    await context.close();

    // The same page in English, dark, on a phone.
    const phone = await newPage(browser, product.baseUrl, { width: 375, height: 812, locale: 'en-US' });
    await phone.page.addInitScript(() => {
      localStorage.setItem('i18nextLng', 'en');
      localStorage.setItem('theme-mode', 'dark');
    });
    await phone.page.goto('/register');
    await phone.page.getByRole('button', { name: 'Send code' }).waitFor();
    await snap(phone.page, 'accounts-03-register-en-dark-375');
    await phone.context.close();
  });

  it('the newcomer resets a forgotten password by the mailed link, passing the human check', async () => {
    await setOptions([
      ['TurnstileSiteKey', 'e2e-site-key'],
      ['TurnstileSecretKey', TURNSTILE_SECRET],
      ['TurnstileCheckEnabled', 'true'],
    ]);
    const { context, page } = await newPage(browser, product.baseUrl);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await withFakeTurnstile(page);
    await page.goto('/login');
    await page.getByRole('link', { name: '忘记密码？' }).click();
    await page.waitForURL('**/reset');
    const form = page.getByTestId('reset-form');
    await form.getByLabel('邮箱').fill('newcomer@example.com');
    await form.getByRole('button', { name: '发送重置邮件' }).click();
    await page.getByText('请稍后几秒重试，Turnstile 正在检查用户环境！').first().waitFor();
    await page.getByRole('button', { name: 'Verify you are human' }).click();
    await form.getByRole('button', { name: '发送重置邮件' }).click();
    await page.getByTestId('reset-sent').waitFor();
    expect(await form.getByRole('button', { name: /重试 \(\d+\)/ }).isDisabled()).toBe(true);
    expect(turnstile.received.at(-1)).toMatchObject({ secret: TURNSTILE_SECRET, response: HUMAN_TOKEN });
    await snap(page, 'accounts-04-reset-sent-locked');

    const link = resetLinkFrom(await mailTo('newcomer@example.com', 2));
    expect(link.origin).toBe(product.baseUrl);
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('button', { name: /确认重置密码/ }).click();
    const field = page.getByLabel('新密码');
    await field.waitFor();
    const password = await field.inputValue();
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await snap(page, 'accounts-05-new-password');

    // The link is spent: opening it again refuses.
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('button', { name: /确认重置密码/ }).click();
    await page.getByText('重置链接非法或已过期').first().waitFor();

    // Sign in with the new password, through the human check.
    await page.goto('/login');
    await page.getByLabel('用户名或邮箱').fill('newcomer');
    await page.getByLabel('密码').fill(password);
    await page.getByRole('button', { name: 'Verify you are human' }).click();
    await snap(page, 'accounts-06-login-with-check');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL('**/token');
    await context.close();

    // The request page in English, dark, on a phone, with the check in place.
    const phone = await newPage(browser, product.baseUrl, { width: 375, height: 812, locale: 'en-US' });
    await phone.page.addInitScript(() => {
      localStorage.setItem('i18nextLng', 'en');
      localStorage.setItem('theme-mode', 'dark');
    });
    await withFakeTurnstile(phone.page);
    await phone.page.goto('/reset');
    await phone.page.getByRole('button', { name: 'Send reset e-mail' }).waitFor();
    await snap(phone.page, 'accounts-06b-reset-en-dark-375');
    await phone.context.close();
    await setOptions([['TurnstileCheckEnabled', 'false']]);
  });

  it('an admin bans a user: the session, the access token and the API key stop working at once', async () => {
    const victim = { username: 'banned', password: 'banned-pass-1' };
    await api('POST', '/api/user/', victim);
    const asVictim = await adminApi(product.baseUrl, victim);
    await asVictim('POST', '/api/token/', { name: 'key', unlimited_quota: true, expired_time: -1, remain_quota: 0 });
    const { items } = await asVictim<{ items: Array<{ key: string }> }>('GET', '/api/token/?p=1&size=10');
    const apiKey = `sk-${items[0]!.key}`;
    const accessToken = await asVictim<string>('GET', '/api/user/token');
    const victimId = (await findUser('banned')).id;
    const models = () => fetch(`${product.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });
    const selfByToken = () =>
      fetch(`${product.baseUrl}/api/user/self`, {
        headers: { authorization: accessToken, 'new-api-user': String(victimId) },
      });
    expect((await models()).status).toBe(200);
    expect((await selfByToken()).status).toBe(200);

    const user = await newPage(browser, product.baseUrl);
    await signIn(user.page, victim);

    const admin = await newPage(browser, product.baseUrl);
    await signIn(admin.page);
    await admin.page.goto('/user');
    const row = admin.page.getByTestId('user-table').getByRole('row').filter({ hasText: 'banned' });
    await row.getByRole('button', { name: '禁用' }).click();
    await row.getByText('已封禁').waitFor();
    await snap(admin.page, 'accounts-07-user-banned');

    expect((await models()).status).toBe(403);
    expect((await selfByToken()).status).toBe(403);
    // The console session ends too: the next page the user opens sends them to sign in.
    await user.page.goto('/log');
    await user.page.waitForURL('**/login**');
    await snap(user.page, 'accounts-08-banned-user-signed-out');
    await user.page.getByLabel('用户名或邮箱').fill(victim.username);
    await user.page.getByLabel('密码').fill(victim.password);
    await user.page.getByRole('button', { name: '登录', exact: true }).click();
    await user.page.getByText('用户已被封禁').first().waitFor();
    await user.context.close();
    await admin.context.close();
  });

  it('a user changes their personal settings: display name, e-mail, access token, password, notifications', async () => {
    const person = { username: 'settler', password: 'settler-pass-1' };
    await api('POST', '/api/user/', person);
    await setOptions([['EmailVerificationEnabled', 'true']]);
    const { context, page } = await newPage(browser, product.baseUrl);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, person);
    await page.goto('/personal');

    await page.getByRole('button', { name: '修改显示名称' }).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('定居者');
    await page.keyboard.press('Enter');
    await page.getByText('定居者').first().waitFor();

    const bindings = page.getByTestId('personal-bindings');
    await bindings.getByRole('button', { name: '绑定' }).first().click();
    const bind = page.getByTestId('email-bind-form');
    await bind.getByLabel('邮箱').fill('settler@example.com');
    await bind.getByRole('button', { name: '获取验证码' }).click();
    await snap(page, 'accounts-09-email-bind-dialog');
    const code = codeFrom(await mailTo('settler@example.com', 1));
    await bind.getByLabel('验证码').fill(code);
    await page.getByRole('dialog').getByRole('button', { name: '绑定', exact: true }).click();
    await page.getByText('邮箱账户绑定成功！').first().waitFor();
    await bindings.getByText('settler@example.com').waitFor();

    await page.getByRole('button', { name: '生成令牌' }).click();
    const confirm = page.getByRole('dialog').getByRole('button', { name: '生成令牌' });
    const token = await copyAndReadClipboard(page, confirm, /令牌已重置并已复制到剪贴板/);
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);

    await page.getByRole('button', { name: '修改密码' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('原密码').fill(person.password);
    await dialog.getByLabel('新密码', { exact: true }).fill('settler-pass-2');
    await dialog.getByLabel('确认新密码').fill('settler-pass-2');
    await dialog.getByRole('button', { name: '确认修改' }).click();
    await page.getByText('密码修改成功！').first().waitFor();

    await page.getByLabel('Webhook 通知').check();
    await page.getByLabel('Webhook 地址').fill('https://93.184.215.14/gateway');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('通知设置已更新').first().waitFor();
    await snap(page, 'accounts-10-personal-settings');

    const saved = await findUser('settler');
    expect(saved).toMatchObject({ display_name: '定居者', email: 'settler@example.com' });
    expect(JSON.parse(String(saved.setting))).toMatchObject({
      notify_type: 'webhook',
      webhook_url: 'https://93.184.215.14/gateway',
    });
    const byToken = await fetch(`${product.baseUrl}/api/user/self`, {
      headers: { authorization: token, 'new-api-user': String(saved.id) },
    });
    expect(byToken.status).toBe(200);
    const oldPassword = await fetch(`${product.baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(person),
    });
    expect(((await oldPassword.json()) as { success: boolean }).success).toBe(false);
    await context.close();
  });
});
