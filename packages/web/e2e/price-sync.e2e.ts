import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';
import { type ConsoleTexts, consoleTexts } from './helpers/texts.js';

/** OpenRouter's public model list in its wire format (USD per token, as strings). */
const MODELS = {
  data: [
    { id: 'e2e/alpha', pricing: { prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003' } },
    { id: 'e2e/beta', pricing: { prompt: '0.0000005', completion: '0.0000015' } },
    { id: 'e2e/gamma', pricing: { prompt: '0.000001', completion: '0.000002' } },
  ],
};

async function fakeOpenRouter(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url !== '/api/v1/models') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(MODELS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function openSyncPanel(page: Page, t: ConsoleTexts['t']) {
  await page.goto('/setting?tab=operation');
  const settings = page.getByTestId('ratio-settings');
  await settings.getByRole('tab', { name: t('price_sync.tab') }).click();
  await page.getByTestId('price-sync').waitFor();
}

describe('root syncs prices from OpenRouter into the ratio settings (built product)', () => {
  let product: Product;
  let browser: Browser;
  let journey: Journey;
  let api: AdminApi;
  let openRouter: Awaited<ReturnType<typeof fakeOpenRouter>>;

  beforeAll(async () => {
    openRouter = await fakeOpenRouter();
    journey = await startJourney();
    ({ product, browser, api } = journey);
    await api('PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
    await api('PUT', '/api/option/', { key: 'ratio_sync.openrouter_base_url', value: openRouter.url });
    await api('PUT', '/api/option/', { key: 'ModelRatio', value: '{"e2e/alpha": 2}' });
  });
  afterAll(async () => {
    await journey?.close();
    await new Promise((resolve) => openRouter?.server.close(resolve));
  });

  it('previews, applies two picked rows, and sees them in the ratio editor and the audit log', async () => {
    const { t } = await consoleTexts('zh');
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await openSyncPanel(page, t);
    await page.getByTestId('price-sync-preview').click();
    const table = page.getByTestId('price-sync-table');
    await table.getByText('e2e/gamma').first().waitFor();
    await table.scrollIntoViewIfNeeded();
    await snap(page, 'price-sync-01-preview', { fullPage: false });

    const row = (model: string, field: string) =>
      table
        .locator('tr')
        .filter({ hasText: model })
        .filter({ hasText: t(`price_sync.field_${field}`) });
    expect(await row('e2e/alpha', 'model_ratio').textContent()).toContain('2 → 1.5');
    await row('e2e/alpha', 'model_ratio').getByRole('checkbox').check();
    await row('e2e/beta', 'model_ratio').getByRole('checkbox').check();
    await page.getByTestId('price-sync-apply').click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: t('price_sync.apply') })
      .click();
    await page.getByText(t('price_sync.apply_selected', { count: 0 })).waitFor();

    const ratios = JSON.parse(
      (await api<Array<{ key: string; value: string }>>('GET', '/api/option/')).find((o) => o.key === 'ModelRatio')!
        .value,
    ) as Record<string, number>;
    expect(ratios).toEqual({ 'e2e/alpha': 1.5, 'e2e/beta': 0.25 });

    // The new prices in the ratio editor (the JSON form re-read the options).
    await page
      .getByTestId('ratio-settings')
      .getByRole('tab', { name: t('setting.ratio.tab_json') })
      .click();
    const editor = page.locator('[id="ModelRatio"]');
    await expect.poll(async () => editor.inputValue()).toContain('e2e/beta');
    expect(await editor.inputValue()).toContain('1.5');
    await editor.scrollIntoViewIfNeeded();
    await snap(page, 'price-sync-02-editor', { fullPage: false });

    // And who did it, on the audit page.
    await page.goto('/audit');
    const audit = page.getByTestId('audit-table');
    await audit.getByText(t('audit.actions.option_sync_prices')).first().waitFor();
    expect(await audit.textContent()).toContain('ModelRatio');
    await snap(page, 'price-sync-03-audit');
    await context.close();
  });

  it('works in English, dark, on a 375 px phone', async () => {
    const { t } = await consoleTexts('en');
    const phone = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await signIn(phone.page);
    await phone.page.evaluate(() => {
      localStorage.setItem('i18nextLng', 'en');
      localStorage.setItem('theme-mode', 'dark');
    });
    await openSyncPanel(phone.page, t);
    await phone.page.getByTestId('price-sync-preview').click();
    await phone.page.getByTestId('price-sync-table').getByText('e2e/gamma').first().waitFor();
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await phone.page.getByTestId('price-sync-table').scrollIntoViewIfNeeded();
    await snap(phone.page, 'price-sync-04-en-dark-375', { fullPage: false });
    await phone.context.close();
  });
});
