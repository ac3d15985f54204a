import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { copyAndReadClipboard } from './helpers/copy.js';
import { epaySignature, type FakeEpay, startFakeEpay } from './helpers/fake-epay.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

const ALICE = { username: 'alice', password: 'alice-password-1' };
const MERCHANT = { pid: '1001', key: 'e2e-merchant-key' };

describe('money: redemption codes, online top-up through a gateway, and the dashboard (built product)', () => {
  let product: Product;
  let browser: Browser;
  let journey: UpstreamJourney;
  let mock: MockUpstream;
  let gateway: FakeEpay;
  let api: AdminApi;
  let aliceId: number;

  const aliceQuota = async () => (await api<{ quota: number }>('GET', `/api/user/${aliceId}`)).quota;

  /** A new browser context signed in as alice (zh), optionally switched to English, dark mode or a phone width. */
  const aliceSession = async (options: { lang?: 'en'; dark?: boolean; width?: number } = {}) => {
    const opened = await newPage(browser, product.baseUrl, {
      width: options.width,
      height: options.width ? 812 : undefined,
    });
    if (options.dark) await opened.context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(opened.page, ALICE);
    if (options.lang) {
      await opened.page.evaluate((lang) => localStorage.setItem('i18nextLng', lang), options.lang);
    }
    return opened;
  };

  beforeAll(async () => {
    gateway = await startFakeEpay(MERCHANT);
    journey = await startUpstreamJourney({ privateConsole: true });
    ({ product, browser, api, mock } = journey);
    await api('POST', '/api/user/', { ...ALICE, display_name: 'Alice' });
    const found = await api<{ items: Array<{ id: number; username: string }> }>(
      'GET',
      '/api/user/search?keyword=alice',
    );
    aliceId = found.items.find((user) => user.username === 'alice')!.id;
    await api('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: 'mock',
        key: 'sk-money',
        base_url: mock.baseUrl,
        models: 'gpt-4o,gpt-4o-mini',
        group: 'default',
      },
    });
  });
  afterAll(async () => {
    await journey?.close();
    await gateway?.close();
  });

  it('an admin creates a code and copies it; the user redeems it and sees the balance and the top-up log', async () => {
    const admin = await newPage(browser, product.baseUrl);
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.baseUrl });
    await signIn(admin.page);
    await admin.page.goto('/redemption');
    await admin.page.getByTestId('redemption-create').click();
    const form = admin.page.getByTestId('redemption-form');
    await form.waitFor();
    await form.getByLabel('名称').fill('新年礼包');
    const quota = form.getByLabel('额度', { exact: true });
    await quota.fill('1000000');
    await form.getByText('等于 $2.00').waitFor();
    await snap(admin.page, 'money-01-code-form');
    await form
      .getByRole('button', { name: '创 建' })
      .or(form.getByRole('button', { name: '创建' }))
      .click();
    const created = admin.page.getByTestId('redemption-created-keys');
    await created.waitFor();
    const shown = (await created.locator('.redemption-created-key').first().textContent())!.trim();
    expect(shown).toMatch(/^[A-Za-z0-9]{32}$/);
    const copied = (
      await copyAndReadClipboard(admin.page, admin.page.getByRole('button', { name: /复制全部/ }), /已复制 1 个兑换码/)
    ).trim();
    expect(copied).toBe(shown);
    await snap(admin.page, 'money-02-code-created');
    await admin.context.close();

    const { context, page } = await aliceSession();
    await page.goto('/topup');
    await page.getByTestId('wallet-balance-value').getByText('$0.00').waitFor();
    await page.getByTestId('wallet-redeem').click();
    await page.getByText('请输入兑换码！').waitFor();
    await page.getByTestId('wallet-redeem-input').fill(copied);
    await page.getByTestId('wallet-redeem').click();
    await page.getByText('兑换成功，到账 $2.00').waitFor();
    await page.getByTestId('wallet-balance-value').getByText('$2.00').waitFor();
    await snap(page, 'money-03-redeemed');
    expect(await aliceQuota()).toBe(1_000_000);

    // The same code a second time: refused with the server's words, balance unchanged.
    await page.getByTestId('wallet-redeem-input').fill(copied);
    await page.getByTestId('wallet-redeem').click();
    await page.getByText('该兑换码已被使用').first().waitFor();
    expect(await aliceQuota()).toBe(1_000_000);

    await page.getByRole('link', { name: '使用日志' }).click();
    await page.waitForURL('**/log');
    const table = page.getByTestId('log-table');
    await table.getByText('通过兑换码充值 $2.00', { exact: false }).first().waitFor();
    await table.getByText('充值', { exact: true }).first().waitFor();
    await snap(page, 'money-04-topup-log');
    await context.close();
  });

  it('the user pays through the epay gateway; the balance grows once (en)', async () => {
    for (const [key, value] of [
      ['ServerAddress', product.baseUrl],
      ['PayAddress', gateway.baseUrl],
      ['EpayId', MERCHANT.pid],
      ['EpayKey', MERCHANT.key],
      ['MinTopUp', '2'],
      ['payment_setting.amount_options', '[2, 10, 20, 50]'],
      ['payment_setting.amount_discount', '{"20": 0.9}'],
    ]) {
      await api('PUT', '/api/option/', { key, value });
    }
    const before = await aliceQuota();
    const { context, page } = await aliceSession({ lang: 'en' });
    await page.goto('/topup');
    await page.getByText('Online top-up').first().waitFor();
    const amount = page.getByTestId('wallet-amount').locator('input').or(page.locator('input#wallet-amount')).first();
    await amount.fill('1');
    await page.getByText('The top-up amount cannot be less than 2').first().waitFor();
    await snap(page, 'money-05-wallet-min-en');

    await page.getByRole('button', { name: /^20 10% off$/ }).click();
    await page.getByText('10% off').waitFor();
    // 20 units × ¥7.3 × group ratio 1 × discount 0.9 = ¥131.40
    await page.getByTestId('wallet-payable').getByText('¥131.40').waitFor();
    await snap(page, 'money-06-wallet-quote-en');
    await page.getByTestId('wallet-pay-zfb').click();
    await page.getByRole('dialog').getByText('¥131.40').waitFor();
    await page.getByRole('button', { name: 'Go to payment' }).click();

    await page.waitForURL(`${gateway.baseUrl}/submit.php`);
    await page.getByTestId('gateway-signature').getByText('签名正确').waitFor();
    expect(await page.getByTestId('gateway-money').textContent()).toBe('¥131.40');
    expect(gateway.orders.at(-1)!.fields).toMatchObject({ type: 'alipay', money: '131.40', name: 'TUC20' });
    await snap(page, 'money-07-gateway');
    await page.getByRole('button', { name: '确认支付' }).click();

    await page.waitForURL('**/topup?pay=success');
    await page.getByText('Payment received: the quota has been added to your balance').waitFor();
    // $2.00 redeemed before + $20.00 paid
    await page.getByTestId('wallet-balance-value').getByText('$22.00').waitFor();
    const history = page.getByTestId('wallet-history');
    await history.getByText('¥131.40').waitFor();
    await history.getByText('Completed').first().waitFor();
    await history.getByText('Redemption code').waitFor();
    await snap(page, 'money-08-paid-en');
    expect(gateway.notifyAnswers).toEqual(['success']);
    expect((await aliceQuota()) - before).toBe(20 * 500_000);

    // The gateway retries its notification (as real ones do): acknowledged, nothing credited again.
    const order = gateway.orders.at(-1)!.fields;
    const replay: Record<string, string> = {
      pid: MERCHANT.pid,
      trade_no: 'GW-replay',
      out_trade_no: order.out_trade_no!,
      type: order.type!,
      name: order.name!,
      money: order.money!,
      trade_status: 'TRADE_SUCCESS',
    };
    const query = new URLSearchParams({ ...replay, sign: epaySignature(replay, MERCHANT.key), sign_type: 'MD5' });
    expect(await (await fetch(`${order.notify_url}?${query}`)).text()).toBe('success');
    expect((await aliceQuota()) - before).toBe(20 * 500_000);

    await page.getByRole('link', { name: 'Usage log' }).click();
    await page.waitForURL('**/log');
    // The English console reads the top-up line in English (the row keeps the family's Chinese content too).
    await page.getByTestId('log-table').getByText('Online top-up succeeded', { exact: false }).first().waitFor();
    await snap(page, 'money-09-paid-log-en');

    await page.evaluate(() => localStorage.setItem('theme-mode', 'dark'));
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/topup');
    await page.getByText('10% off').waitFor();
    await page.getByTestId('wallet-balance-value').getByText('$22.00').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snap(page, 'money-09b-wallet-en-dark-375');
    await context.close();
  });

  describe('the dashboard after some relay calls', () => {
    const chats = async (key: string, model: string, times: number) => {
      for (let index = 0; index < times; index++) {
        const response = await fetch(`${product.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(response.status).toBe(200);
        await response.text();
      }
    };
    const chartsReady = async (page: Page) => {
      for (const chart of ['detail-chart-quota', 'detail-chart-calls', 'detail-chart-share']) {
        await page.locator(`[data-testid="${chart}"][data-state="ready"] canvas`).first().waitFor();
      }
    };

    beforeAll(async () => {
      mock.setDefault('openai.chat', { kind: 'ok', text: 'ok', usage: { prompt: 1000, completion: 500 } });
      const [token] = await api<Array<{ key: string }>>('POST', '/api/token/', { name: 'dash', unlimited_quota: true });
      // gpt-4o: (1000 + 500 × 4) × 1.25 = 3750 each; gpt-4o-mini: (1000 + 500 × 4) × 0.075 = 225 each
      await chats(`sk-${token!.key}`, 'gpt-4o', 3);
      await chats(`sk-${token!.key}`, 'gpt-4o-mini', 2);
    });

    it('shows the admin the totals, the three charts and the table, and exports the CSV (zh)', async () => {
      const { context, page } = await newPage(browser, product.baseUrl);
      await signIn(page);
      await page.getByRole('link', { name: '数据看板' }).click();
      await page.waitForURL('**/detail');
      // 3 × 3750 + 2 × 225 = 11 700 quota, shown as $0.02 (the units are checked in the CSV); 5 calls × 1500 tokens
      await page.getByTestId('detail-total-quota').getByText('$0.02', { exact: true }).waitFor();
      await page.getByTestId('detail-total-count').getByText('5', { exact: true }).waitFor();
      await page.getByTestId('detail-total-tokens').getByText('7,500').waitFor();
      await chartsReady(page);
      const table = page.getByTestId('detail-table');
      await table.getByText('gpt-4o-mini').first().waitFor();
      await table.getByText('admin').first().waitFor();
      await snap(page, 'money-10-dashboard-admin-zh');

      await page.getByTestId('detail-granularity').getByText('天').click();
      await table
        .getByText(/^\d{4}-\d{2}-\d{2}$/)
        .first()
        .waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /导出 CSV/ }).click(),
      ]);
      const csv = readFileSync((await download.path())!, 'utf8');
      expect(csv.charCodeAt(0)).toBe(0xfeff);
      const lines = csv.slice(1).split('\r\n');
      expect(lines[0]).toBe('时间,用户,模型,请求次数,Tokens,额度（原始值）,消耗额度');
      expect(lines.slice(1).map((line) => line.split(',').slice(1, 6))).toEqual(
        expect.arrayContaining([
          ['admin', 'gpt-4o', '3', '4500', '11250'],
          ['admin', 'gpt-4o-mini', '2', '3000', '450'],
        ]),
      );
      await context.close();
    });

    it('shows a user only their own (empty) data, in English, dark mode and on a phone', async () => {
      const { context, page } = await aliceSession({ lang: 'en', dark: true, width: 375 });
      await page.goto('/detail');
      await page.getByText('No usage in the chosen time range').waitFor();
      await snap(page, 'money-11-dashboard-empty-en-dark-375');
      await context.close();

      const admin = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
      await admin.context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
      await signIn(admin.page);
      await admin.page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
      await admin.page.goto('/detail');
      await admin.page.getByTestId('detail-total-quota').getByText('$0.02', { exact: true }).waitFor();
      await chartsReady(admin.page);
      const width = await admin.page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(375);
      await snap(admin.page, 'money-12-dashboard-admin-en-dark-375');
      await admin.context.close();
    });

    it('says the dashboard is off when data export is disabled', async () => {
      await api('PUT', '/api/option/', { key: 'DataExportEnabled', value: 'false' });
      const { context, page } = await newPage(browser, product.baseUrl);
      await signIn(page);
      await page.goto('/detail');
      await page.getByTestId('detail-disabled').getByText('数据看板未开启').waitFor();
      await snap(page, 'money-13-dashboard-disabled');
      await context.close();
      await api('PUT', '/api/option/', { key: 'DataExportEnabled', value: 'true' });
    });
  });
});
