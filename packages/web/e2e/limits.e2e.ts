import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

describe('limits and budgets in the console (built product, mock upstream)', () => {
  let product: Product;
  let browser: Browser;
  let journey: UpstreamJourney;
  let mock: MockUpstream;
  let api: AdminApi;

  beforeAll(async () => {
    journey = await startUpstreamJourney();
    ({ product, browser, api, mock } = journey);
    await api('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: '计费渠道',
        key: 'sk-e2e',
        base_url: mock.baseUrl,
        models: 'per-call-model',
        group: 'default',
      },
    });
    // 0.002 per call × 500 000 quota per unit = 1 000 quota ($0.002) per request.
    await api('PUT', '/api/option/', { key: 'ModelPrice', value: '{"per-call-model": 0.002}' });
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('sets a rate limit and a daily budget in the token form and sees them, then the spend, on the list', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.getByTestId('token-create').click();
    const form = page.getByTestId('token-form');
    await form.waitFor();
    await form.getByLabel('名称').fill('限流令牌');
    await form.getByLabel('每分钟请求数').fill('10');
    await form.getByLabel('并发请求数').fill('2');
    await form.getByLabel('周期预算', { exact: true }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: '每日' }).click();
    await form.getByLabel('周期预算额度').fill('5000');
    await form.getByText('等价于 $0.01').waitFor();
    await snap(page, 'limits-01-token-form');
    await form.getByRole('button', { name: '创建' }).click();

    const limits = page.getByTestId('token-table').getByTestId('token-limits');
    await limits.getByText('10 次/分').waitFor();
    await limits.getByText('并发 2').waitFor();
    await limits.getByText('每日 $0.00 / $0.01').waitFor();

    const tokens = await api<{ items: Array<{ key: string; name: string }> }>('GET', '/api/token/?p=1&size=10');
    const token = tokens.items.find((item) => item.name === '限流令牌')!;
    const relay = await fetch(`${product.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'per-call-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(relay.status).toBe(200);
    await page.reload();
    await page.getByTestId('token-table').getByText('每日 $0.002 / $0.01').waitFor();
    await snap(page, 'limits-02-token-list');
    await context.close();
  });

  it('shows the limits on a 375 px phone without sideways scrolling, and the form fits', async () => {
    const { context, page } = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await signIn(page);
    const card = page.getByTestId('token-table').getByTestId('token-limits').first();
    await card.getByText('10 次/分').waitFor();
    await card.getByText('每日 $0.002 / $0.01').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snap(page, 'limits-03-phone-list');
    await page.getByRole('button', { name: '编辑' }).first().click();
    const form = page.getByTestId('token-form');
    await form.getByLabel('每分钟请求数').scrollIntoViewIfNeeded();
    expect(await form.getByLabel('每分钟请求数').inputValue()).toBe('10');
    await snap(page, 'limits-04-phone-form', { fullPage: false });
    await context.close();
  });

  it('edits the per-group defaults in English on the rate limit settings, refusing a malformed map', async () => {
    const { context, page } = await newPage(browser, product.baseUrl, { locale: 'en-US' });
    await signIn(page);
    await page.goto('/setting?tab=ratelimit&lng=en');
    const section = page.getByTestId('section-group-limits');
    await section.waitFor();
    const field = section.getByLabel('Default limits per group');
    await field.fill('{"default": {"rpm": -1}}');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText(/must be a JSON object: group/).waitFor();
    await field.fill('{"default": {"rpm": 60, "concurrency": 5}}');
    await section.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').first().waitFor();
    const options = await api<Array<{ key: string; value: string }>>('GET', '/api/option/');
    expect(JSON.parse(options.find((option) => option.key === 'GroupLimitDefaults')!.value)).toEqual({
      default: { rpm: 60, concurrency: 5 },
    });
    await snap(page, 'limits-05-group-defaults');
    await context.close();
  });
});
