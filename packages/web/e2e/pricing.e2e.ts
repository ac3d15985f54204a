import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, snap } from './helpers/browser.js';
import { copyAndReadClipboard } from './helpers/copy.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { signIn } from './helpers/session.js';

/** The table's model names from top to bottom (the default sort puts the viewed group's models first). */
async function modelOrder(page: Page): Promise<string[]> {
  return page.locator('[data-testid="pricing-table"] .pricing-model-name').allTextContents();
}

async function priceText(page: Page, model: string): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's rendered text keeps the spacing a person reads
  return (await page.getByTestId(`price-${model}`).innerText()).replace(/\s+/g, ' ').trim();
}

describe('the public pricing page', () => {
  let product: Product;
  let browser: Browser;
  let journey: Journey;

  beforeAll(async () => {
    journey = await startJourney();
    ({ product, browser } = journey);
    const { api } = journey;
    const options: Record<string, unknown> = {
      ModelRatio: { 'gpt-4o-mini': 0.075, 'gpt-4o': 1.25, 'claude-3-5-sonnet-20241022': 1.5 },
      CompletionRatio: { 'gpt-4o-mini': 4, 'gpt-4o': 4, 'claude-3-5-sonnet-20241022': 5 },
      CacheRatio: { 'gpt-4o': 0.5 },
      ModelPrice: { mj_imagine: 0.1 },
      GroupRatio: { default: 1, vip: 2 },
      UserUsableGroups: { default: '默认分组', vip: 'VIP 分组' },
    };
    for (const [key, value] of Object.entries(options)) {
      await api('PUT', '/api/option/', { key, value: JSON.stringify(value) });
    }
    const channel = (name: string, group: string, models: string) =>
      api('POST', '/api/channel/', {
        mode: 'single',
        channel: { type: 1, name, key: `sk-${name}`, base_url: 'http://127.0.0.1:9', models, group },
      });
    await channel('everyone', 'default,vip', 'gpt-4o-mini,mj_imagine');
    await channel('premium', 'vip', 'gpt-4o,claude-3-5-sonnet-20241022');
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('shows a visitor hand-checked prices, searches, switches group and copies names (zh)', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.baseUrl });
    await page.goto('/pricing');
    await page.getByTestId('pricing-guest-warning').waitFor();
    expect(await page.getByTestId('pricing-guest-warning').textContent()).toContain('价格按默认分组倍率计算');
    expect(await page.getByTestId('pricing-formula').textContent()).toContain(
      '按量计费费用 = 分组倍率 × 模型倍率 × (提示 tokens + 补全 tokens × 补全倍率) / 500000 美元',
    );
    // Available in "default" first (server order inside: per-token, gpt first, by name; per-call last).
    expect(await modelOrder(page)).toEqual(['gpt-4o-mini', 'mj_imagine', 'gpt-4o', 'claude-3-5-sonnet-20241022']);
    // gpt-4o-mini: 0.075 × 2 = $0.15 in, × 4 = $0.6 out; mj_imagine $0.1 × 1 per call.
    expect(await priceText(page, 'gpt-4o-mini')).toBe('输入 $0.15 / 1M tokens 输出 $0.6 / 1M tokens');
    expect(await priceText(page, 'mj_imagine')).toBe('每次调用 $0.1 / 次');
    // gpt-4o: 1.25 × 2 = $2.5 in, × 4 = $10 out, cached × 0.5 = $1.25.
    expect(await priceText(page, 'gpt-4o')).toBe(
      '输入 $2.5 / 1M tokens 输出 $10 / 1M tokens 缓存读取 $1.25 / 1M tokens',
    );
    await snap(page, 'pricing-01-visitor-zh');

    // A finished input-method composition searches; the half-composed text does not.
    const search = page.getByLabel('模糊搜索模型名称');
    await search.click();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: 'cla', selectionStart: 3, selectionEnd: 3 });
    expect(await modelOrder(page)).toHaveLength(4);
    await cdp.send('Input.insertText', { text: 'cla' });
    await page.waitForFunction(() => document.querySelectorAll('.pricing-model-name').length === 1);
    expect(await modelOrder(page)).toEqual(['claude-3-5-sonnet-20241022']);
    await search.fill('g4o mini');
    await page.waitForFunction(() => document.querySelectorAll('.pricing-model-name').length === 1);
    expect(await modelOrder(page)).toEqual(['gpt-4o-mini']);
    await snap(page, 'pricing-02-search');
    await search.fill('');
    await page.waitForFunction(() => document.querySelectorAll('.pricing-model-name').length === 4);

    // Clicking the vip tag views vip prices: ratio 2 doubles them, and vip's models become available.
    await page
      .getByRole('row', { name: /gpt-4o-mini/ })
      .getByRole('button', { name: 'vip' })
      .click();
    await page.getByText('当前查看的分组为：vip，倍率为：2').waitFor();
    expect(await priceText(page, 'gpt-4o-mini')).toBe('输入 $0.3 / 1M tokens 输出 $1.2 / 1M tokens');
    expect(await priceText(page, 'claude-3-5-sonnet-20241022')).toBe('输入 $6 / 1M tokens 输出 $30 / 1M tokens');
    expect(await modelOrder(page)).toEqual(['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet-20241022', 'mj_imagine']);
    await snap(page, 'pricing-03-vip');

    // One click copies a name; selected rows copy as a comma list.
    const name = page.locator('.pricing-model-name', { hasText: 'gpt-4o-mini' });
    expect(await copyAndReadClipboard(page, name, /已复制模型名称：gpt-4o-mini/)).toBe('gpt-4o-mini');
    await page
      .getByRole('row', { name: /claude-3-5-sonnet/ })
      .getByRole('checkbox')
      .check();
    await page
      .getByRole('row', { name: /mj_imagine/ })
      .getByRole('checkbox')
      .check();
    expect(await copyAndReadClipboard(page, page.getByTestId('pricing-copy-selected'), /已复制 2 个模型名称/)).toBe(
      'claude-3-5-sonnet-20241022,mj_imagine',
    );
    await context.close();
  });

  it('shows a signed-in user their group banner in English and dark mode', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(page);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.goto('/pricing');
    const banner = page.getByTestId('pricing-group-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Your default group is default, with a group ratio of 1');
    expect(await priceText(page, 'gpt-4o-mini')).toBe('Input $0.15 / 1M tokens Output $0.6 / 1M tokens');
    expect(await priceText(page, 'mj_imagine')).toBe('Per call $0.1 / call');
    await snap(page, 'pricing-04-user-en-dark');
    await context.close();
  });

  it('is usable at 375 px: cards, no sideways scrolling', async () => {
    const { context, page } = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await page.goto('/pricing');
    await page.getByTestId('price-gpt-4o-mini').waitFor();
    expect(await priceText(page, 'gpt-4o-mini')).toBe('输入 $0.15 / 1M tokens 输出 $0.6 / 1M tokens');
    expect(await page.locator('.pricing-card').count()).toBe(4);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snap(page, 'pricing-05-375-zh');
    await page.evaluate(() => localStorage.setItem('theme-mode', 'dark'));
    await page.reload();
    await page.getByTestId('price-gpt-4o-mini').waitFor();
    await snap(page, 'pricing-06-375-dark');
    await context.close();
  });
});
