import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

/** An OIDC provider's discovery document, served locally (the only outside party this journey needs). */
async function startFakeIdp(): Promise<{ url: string; close: () => Promise<void> }> {
  let base = '';
  const server: Server = createServer((request, response) => {
    if (request.url === '/.well-known/openid-configuration') {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          userinfo_endpoint: `${base}/userinfo`,
        }),
      );
      return;
    }
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What a phone shows at once (the full-page pictures of these long forms are too tall to read). */
async function viewportSnap(page: Page, name: string): Promise<void> {
  const dir = resolve(import.meta.dirname, '../../../test-artifacts/screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** A form input by its option key (antd gives each item the field name as id; keys may contain dots). */
const field = (page: Page, key: string) => page.locator(`[id="${key}"]`);
const section = (page: Page, id: string) => page.getByTestId(`section-${id}`);

describe('an admin changes every settings tab and sees it applied (built product)', () => {
  let product: Product;
  let browser: Browser;
  let journey: Journey;
  let idp: Awaited<ReturnType<typeof startFakeIdp>>;
  let api: AdminApi;

  const option = async (key: string) =>
    (await api<Array<{ key: string; value: string }>>('GET', '/api/option/')).find((entry) => entry.key === key)?.value;

  /** Polls the server until an option holds the value (the save is a few sequential requests). */
  const expectOption = async (key: string, value: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const current = await option(key);
      if (current === value) return;
      if (Date.now() > deadline) expect(current, key).toBe(value);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const openTab = async (page: Page, tab: string) => {
    await page.goto(`/setting?tab=${tab}`);
    await page.getByTestId('setting-tabs').waitFor();
  };

  beforeAll(async () => {
    idp = await startFakeIdp();
    journey = await startJourney();
    ({ product, browser, api } = journey);
  });
  afterAll(async () => {
    await journey?.close();
    await idp?.close();
  });

  it('operation: saves a changed section, refuses bad JSON, clears old logs', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/setting');
    const general = section(page, 'general');
    await general.waitFor();
    await snap(page, 'settings-01-operation');

    await general.getByRole('button', { name: '保存' }).click();
    await page.getByText('你似乎并没有修改什么').first().waitFor();

    await field(page, 'RetryTimes').fill('2');
    await section(page, 'drawing').getByRole('switch').first().click(); // DrawingEnabled off
    await general.getByRole('button', { name: '保存' }).click();
    await expectOption('RetryTimes', '2');
    expect(await option('DrawingEnabled')).toBe('true'); // another section's edit is not saved by this button
    await section(page, 'drawing').getByRole('button', { name: '保存' }).click();
    await expectOption('DrawingEnabled', 'false');
    const status = await api<{ enable_drawing: boolean }>('GET', '/api/status');
    expect(status.enable_drawing).toBe(false);

    // Bad JSON: refused in the form with the spec's words, nothing sent.
    const chats = field(page, 'Chats');
    await chats.fill('[{"x": ');
    await general.getByRole('button', { name: '保存' }).click();
    await general.getByText('聊天应用配置（Chats）不是合法的 JSON 字符串').waitFor();
    await snap(page, 'settings-02-bad-json');
    expect(await option('Chats')).not.toContain('{"x": ');

    // Clearing logs older than now (a month ago by default) answers with a count.
    const picker = page.getByTestId('log-clear-time');
    await picker.click();
    await page.locator('.ant-picker-dropdown').getByText('此刻').click();
    await section(page, 'logs').getByRole('button', { name: '清除历史日志' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '删除' }).click();
    await page
      .getByText(/已清除 \d+ 条日志/)
      .first()
      .waitFor();
    await snap(page, 'settings-03-logs-cleared');
    await context.close();
  });

  it('operation: ratio JSON reset, visual editor, and unpriced models', async () => {
    await api('PUT', '/api/option/', { key: 'ModelRatio', value: '{"custom-model": 3}' });
    await api('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: 'e2e',
        key: 'sk-e2e',
        base_url: 'http://127.0.0.1:9',
        models: 'unpriced-a,unpriced-b',
        group: 'default',
      },
    });
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/setting');
    const ratio = page.getByTestId('ratio-settings');
    await ratio.scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: '重置模型倍率' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '重置模型倍率' }).click();
    await page.getByText('模型倍率已重置为默认值').first().waitFor();
    const ratios = async () => JSON.parse((await option('ModelRatio')) ?? '{}') as Record<string, number>;
    expect((await ratios())['gpt-4o']).toBe(1.25);
    expect((await ratios())['custom-model']).toBeUndefined();

    // Visual editor: $3 in and $15 out per 1M tokens are ratio 1.5 and completion ratio 5.
    await ratio.getByRole('tab', { name: '可视化倍率设置' }).click();
    const visual = page.getByTestId('ratio-visual');
    await visual.getByRole('button', { name: '添加模型' }).click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('pricing-row-form') });
    await dialog.locator('[id="name"]').fill('gpt-4o');
    await dialog.getByText('每百万 tokens 价格').click();
    await dialog.locator('[id="tokenPrice"]').fill('3');
    await dialog.locator('[id="completionTokenPrice"]').fill('15');
    await dialog.getByText('相当于模型倍率 1.5，补全倍率 5').waitFor();
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('模型名称已存在').waitFor();
    await dialog.locator('[id="name"]').fill('my-sonnet');
    await snap(page, 'settings-04-visual-add');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await ratios())['my-sonnet']).toBe(1.5);
    expect(JSON.parse((await option('CompletionRatio')) ?? '{}')['my-sonnet']).toBe(5);
    await visual.getByPlaceholder('搜索模型名称').fill('my-sonnet');
    await visual.getByText('$3 / $15').waitFor();
    await snap(page, 'settings-05-visual-search');

    // Models served by a channel but priced nowhere: select both, set them at once.
    await ratio.getByRole('tab', { name: '未设置倍率模型' }).click();
    const unset = page.getByTestId('ratio-unset');
    await unset.getByText('unpriced-a').waitFor();
    // Nothing selected yet: the batch action waits for a selection.
    await expect(unset.getByRole('button', { name: /批量设置/ }).isDisabled()).resolves.toBe(true);
    await unset.locator('thead input[type="checkbox"]').check();
    await unset.getByRole('button', { name: '批量设置（已选 2 个）' }).click();
    const batch = page.locator('.ant-modal').filter({ hasText: '批量设置 2 个模型' });
    await batch.locator('[id="ratio"]').fill('2');
    await batch.getByRole('button', { name: '保存' }).click();
    await batch.getByText('请输入数字').waitFor(); // a batch needs both ratios
    await batch.locator('[id="completionRatio"]').fill('1');
    await batch.getByRole('button', { name: '保存' }).click();
    await unset.getByText('所有已启用的模型都已设置价格').waitFor();
    expect((await ratios())['unpriced-a']).toBe(2);
    expect((await ratios())['unpriced-b']).toBe(2);
    await snap(page, 'settings-06-unset-done');
    await context.close();
  });

  it('rate limits: a group outside the spec bounds is refused, a good one saved', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await openTab(page, 'ratelimit');
    const limits = section(page, 'ratelimit');
    await field(page, 'ModelRequestRateLimitGroup').fill('{"vip": [10, 0]}');
    await limits.getByRole('button', { name: '保存' }).click();
    await limits.getByText('分组速率限制的 JSON 结构不正确').waitFor();
    await field(page, 'ModelRequestRateLimitGroup').fill('{"vip": [100, 50]}');
    await limits.getByRole('switch').click();
    await limits.getByRole('button', { name: '保存' }).click();
    await expectOption('ModelRequestRateLimitGroup', '{"vip": [100, 50]}');
    await expectOption('ModelRequestRateLimitEnabled', 'true');
    await snap(page, 'settings-07-ratelimit');
    await api('PUT', '/api/option/', { key: 'ModelRequestRateLimitEnabled', value: 'false' });
    await context.close();
  });

  it('models: the ping interval is editable only with pings on, and saved with them', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await openTab(page, 'models');
    const global = section(page, 'global');
    const seconds = field(page, 'general_setting.ping_interval_seconds');
    expect(await seconds.isDisabled()).toBe(true);
    await field(page, 'general_setting.ping_interval_enabled').click();
    await expect.poll(() => seconds.isDisabled()).toBe(false);
    await seconds.fill('15');
    await global.getByRole('button', { name: '保存' }).click();
    await expectOption('general_setting.ping_interval_seconds', '15');
    await expectOption('general_setting.ping_interval_enabled', 'true');

    const policy = field(page, 'global.chat_completions_to_responses_policy');
    await policy.fill('{"enabled": true, "all_channels": true, "model_patterns": ["(unclosed"]}');
    await global.getByRole('button', { name: '保存' }).click();
    await global.getByText('模型规则须为有效的正则表达式').waitFor();
    const good = '{"enabled": true, "channel_types": [1], "model_patterns": ["^o1-pro$"]}';
    await policy.fill(good);
    await global.getByRole('button', { name: '保存' }).click();
    await expectOption('global.chat_completions_to_responses_policy', good);

    const claude = section(page, 'claude');
    await field(page, 'claude.default_max_tokens').fill('{"default": 0}');
    await claude.getByRole('button', { name: '保存' }).click();
    await claude.getByText('默认最大输出 tokens 的 JSON 结构不正确').waitFor();
    await snap(page, 'settings-08-models');
    await context.close();
  });

  it('system: address without trailing slash, payment needs it, password login asks, whitelist, OIDC discovery', async () => {
    await api('PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await openTab(page, 'system');

    await field(page, 'EpayId').fill('1001');
    await section(page, 'payment').getByRole('button', { name: '保存' }).click();
    await page.getByText('请先填写服务器地址').first().waitFor();
    expect(await option('EpayId')).toBe('');

    await field(page, 'TopupGroupRatio').fill('{"vip": 1.2');
    await section(page, 'payment').getByRole('button', { name: '保存' }).click();
    await section(page, 'payment').getByText('充值分组倍率不是合法的 JSON 字符串').waitFor();
    await field(page, 'TopupGroupRatio').fill('{"default": 1, "vip": 1.2}');

    await field(page, 'ServerAddress').fill('https://gateway.example.com/');
    await section(page, 'general').getByRole('button', { name: '保存' }).click();
    await expectOption('ServerAddress', 'https://gateway.example.com');
    await section(page, 'payment').getByRole('button', { name: '保存' }).click();
    await expectOption('EpayId', '1001');
    await expectOption('TopupGroupRatio', '{"default": 1, "vip": 1.2}');

    const passwordLogin = field(page, 'PasswordLoginEnabled');
    await passwordLogin.click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.locator('.ant-modal-confirm-title').getByText('确定关闭密码登录？').waitFor();
    await snap(page, 'settings-09-password-login-confirm');
    await confirm.getByRole('button', { name: '取消' }).click();
    expect(await passwordLogin.getAttribute('aria-checked')).toBe('true');

    const whitelist = page.getByTestId('email-whitelist');
    await whitelist.getByLabel('要添加的域名').fill('not a domain');
    await whitelist.getByRole('button', { name: '添加' }).click();
    await whitelist.getByText('请输入合法的域名，例如 example.com').waitFor();
    await whitelist.getByLabel('要添加的域名').fill('gmail.com');
    await whitelist.getByRole('button', { name: '添加' }).click();
    await whitelist.getByText('该域名已存在于白名单中').waitFor();
    await whitelist.getByLabel('要添加的域名').fill('example.org');
    await whitelist.getByRole('button', { name: '添加' }).click();
    await section(page, 'whitelist').getByRole('button', { name: '保存' }).click();
    await expect.poll(async () => (await option('EmailDomainWhitelist'))?.endsWith(',example.org')).toBe(true);

    await field(page, 'oidc.well_known').fill('ftp://nope');
    await section(page, 'oidc').getByRole('button', { name: '获取配置' }).click();
    await page.getByText('Well-Known 地址必须以 http:// 或 https:// 开头').first().waitFor();
    await field(page, 'oidc.well_known').fill(`${idp.url}/.well-known/openid-configuration`);
    await section(page, 'oidc').getByRole('button', { name: '获取配置' }).click();
    await expect.poll(() => field(page, 'oidc.token_endpoint').inputValue()).toBe(`${idp.url}/token`);
    await field(page, 'oidc.client_id').fill('oidc-client');
    await field(page, 'oidc.client_secret').fill('oidc-secret');
    await section(page, 'oidc').getByRole('button', { name: '保存' }).click();
    await expectOption('oidc.user_info_endpoint', `${idp.url}/userinfo`);
    await expectOption('oidc.authorization_endpoint', `${idp.url}/authorize`);
    expect(await option('oidc.client_secret')).toBe(''); // saved, never read back
    await expect.poll(() => field(page, 'oidc.client_secret').inputValue()).toBe('');
    await snap(page, 'settings-10-system');
    await context.close();
  });

  it('system: top-up quick picks and a discount set here are what a user picks from on the wallet page', async () => {
    await api('PUT', '/api/option/', { key: 'ServerAddress', value: product.baseUrl });
    const buyer = { username: 'buyer', password: 'buyer-password-1' };
    const picksBefore = await option('payment_setting.amount_options');
    await api('POST', '/api/user/', { ...buyer, display_name: 'Buyer' });

    const admin = await newPage(browser, product.baseUrl);
    await signIn(admin.page);
    await openTab(admin.page, 'system');
    const payment = section(admin.page, 'payment');
    await field(admin.page, 'PayAddress').fill('https://pay.example.com');
    await field(admin.page, 'EpayId').fill('1001');
    await field(admin.page, 'EpayKey').fill('merchant-key');
    await field(admin.page, 'payment_setting.amount_options').fill('[0, 15]');
    await field(admin.page, 'payment_setting.amount_discount').fill('{"30": 1.5}');
    await payment.getByRole('button', { name: '保存' }).click();
    await payment.getByText('充值快捷金额必须是由正整数组成的 JSON 数组，例如 [10, 20, 50]').waitFor();
    await payment.getByText(/^充值金额折扣必须是“充值数量 → 折扣系数”的 JSON 对象/).waitFor();
    await field(admin.page, 'payment_setting.amount_options').scrollIntoViewIfNeeded();
    await viewportSnap(admin.page, 'settings-11a-payment-refused');
    expect(await option('payment_setting.amount_options')).toBe(picksBefore);

    await field(admin.page, 'payment_setting.amount_options').fill('[15, 30, 60]');
    await field(admin.page, 'payment_setting.amount_discount').fill('{"30": 0.9}');
    await payment.getByRole('button', { name: '保存' }).click();
    await expectOption('payment_setting.amount_options', '[15, 30, 60]');
    await expectOption('payment_setting.amount_discount', '{"30": 0.9}');
    await expectOption('EpayId', '1001');
    await admin.context.close();

    // The buyer sees exactly these picks, the discount on 30, and pays 30 × ¥7.3 × 0.9 for it.
    const wallet = async (options: { width?: number; dark?: boolean; lang?: 'en' } = {}) => {
      const opened = await newPage(browser, product.baseUrl, {
        width: options.width,
        height: options.width ? 812 : undefined,
      });
      if (options.dark) await opened.context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
      await signIn(opened.page, buyer);
      if (options.lang) await opened.page.evaluate((lang) => localStorage.setItem('i18nextLng', lang), options.lang);
      await opened.page.goto('/topup');
      await opened.page.locator('.wallet-preset').first().waitFor();
      return opened;
    };
    const zh = await wallet();
    await expect.poll(() => zh.page.locator('.wallet-preset').count()).toBe(3);
    await zh.page.getByRole('button', { name: /^15$/ }).waitFor();
    await zh.page.getByRole('button', { name: /^60$/ }).waitFor();
    await zh.page.getByRole('button', { name: /^30\s*9折$/ }).click();
    await zh.page.getByTestId('wallet-payable').getByText('¥197.10').waitFor();
    await snap(zh.page, 'settings-11b-wallet-quick-picks');
    await zh.context.close();

    const en = await wallet({ width: 375, dark: true, lang: 'en' });
    await en.page.getByRole('button', { name: /^30\s*10% off$/ }).click();
    await en.page.getByTestId('wallet-payable').getByText('¥197.10').waitFor();
    await en.page.getByTestId('wallet-payable').scrollIntoViewIfNeeded();
    await viewportSnap(en.page, 'settings-11c-wallet-quick-picks-en-dark-375');
    await en.context.close();
  });

  it('other: the system name shows in the header at once; the version dialog opens', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await openTab(page, 'other');
    await field(page, 'SystemName').fill('星河网关');
    await page.getByRole('button', { name: '设置系统名称' }).click();
    await page.getByTestId('top-bar').getByText('星河网关').waitFor();
    await expectOption('SystemName', '星河网关');
    await page.getByRole('button', { name: '版本信息' }).click();
    await page.getByTestId('version-value').waitFor();
    await snap(page, 'settings-11-other-version');
    await context.close();
  });

  it('reads well in English, dark mode and at 375 px', async () => {
    const { context, page } = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(page);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await openTab(page, 'operation');
    await page.getByRole('tab', { name: 'Rate limits' }).waitFor();
    await section(page, 'general').getByRole('button', { name: 'Save' }).click();
    await page.getByText('You do not seem to have changed anything').first().waitFor();
    await snap(page, 'settings-12-en-dark-375');
    await viewportSnap(page, 'settings-12b-en-dark-375-top');
    await openTab(page, 'system');
    await section(page, 'general').waitFor();
    await snap(page, 'settings-13-system-en-dark-375');
    await page.getByTestId('section-payment').scrollIntoViewIfNeeded();
    await viewportSnap(page, 'settings-13b-system-payment-375');
    await field(page, 'payment_setting.amount_discount').scrollIntoViewIfNeeded();
    await viewportSnap(page, 'settings-13c-system-quick-picks-375');
    await context.close();
  });
});
