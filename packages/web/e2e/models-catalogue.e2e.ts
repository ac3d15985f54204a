import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';
import { type ConsoleTexts, consoleTexts } from './helpers/texts.js';

const MODEL = 'acme-rocket-1';
const VENDOR = 'Acme AI';
const DESCRIPTION = 'A rocket-fast model for long answers';

/** Chooses an option of an antd Select by typing part of it and picking the matching entry. */
async function choose(page: Page, select: ReturnType<Page['getByTestId']>, typed: string, option: RegExp) {
  await select.click();
  await page.keyboard.type(typed);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

describe('the model catalogue (built product)', () => {
  let journey: Journey;
  let product: Product;
  let browser: Browser;
  let api: AdminApi;
  let zh: ConsoleTexts;

  beforeAll(async () => {
    zh = await consoleTexts('zh');
    journey = await startJourney();
    ({ product, browser, api } = journey);
    // A channel serving a model nobody priced or described yet.
    await api('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: 'acme',
        key: 'sk-acme',
        base_url: 'http://127.0.0.1:9',
        models: `gpt-4o-mini,${MODEL}`,
      },
    });
  }, 90_000);
  afterAll(async () => {
    await journey?.close();
  });

  it('adds a missing model in one click, gives it a vendor, description and price, and the pricing page shows it', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/models');
    const missing = page.getByTestId('missing-models');
    await missing.waitFor();
    expect(await missing.textContent()).toContain(MODEL);
    await snap(page, 'models-01-missing');

    // A vendor with an icon of the bundled set.
    await page.getByRole('tab', { name: zh.t('models.tab_vendors') }).click();
    await page.getByTestId('vendor-create').click();
    await page.getByTestId('vendor-name').fill(VENDOR);
    await choose(page, page.getByTestId('icon-select'), 'deepseek', /DeepSeek\.Color$/);
    await page.getByTestId('vendor-save').click();
    await page.getByTestId('vendors-list').getByText(VENDOR).waitFor();
    await page.locator('[data-testid="vendors-list"] .vendor-icon[data-icon="deepseek-color"]').waitFor();
    await snap(page, 'models-02-vendor');

    // One click adds the missing model to the catalogue.
    await page.getByRole('tab', { name: zh.t('models.tab_models') }).click();
    await page.getByTestId(`missing-add-${MODEL}`).click();
    await page.getByTestId(`model-edit-${MODEL}`).waitFor();
    await page.getByTestId(`missing-add-${MODEL}`).waitFor({ state: 'detached' });

    // Vendor, description and price.
    await page.getByTestId(`model-edit-${MODEL}`).click();
    await choose(page, page.getByTestId('model-vendor'), 'Acme', new RegExp(VENDOR));
    await page.getByTestId('model-description').fill(DESCRIPTION);
    await page.getByTestId('model-ratio').fill('2');
    await page.getByTestId('model-completion-ratio').fill('3');
    await snap(page, 'models-03-edit', { fullPage: false });
    await page.getByTestId('model-save').click();
    const row = page.getByRole('row', { name: new RegExp(MODEL) });
    await row.getByText(zh.t('models.price_ratio', { ratio: 2 })).waitFor();
    expect(await row.textContent()).toContain(VENDOR);
    expect(await row.textContent()).toContain(zh.t('models.channel_count', { count: 1 }));
    await snap(page, 'models-04-saved');

    // The price went to the ratio options, which billing reads.
    const options = await api<Array<{ key: string; value: string }>>('GET', '/api/option/');
    const ratioOf = (key: string) => JSON.parse(options.find((option) => option.key === key)!.value)[MODEL];
    expect([ratioOf('ModelRatio'), ratioOf('CompletionRatio')]).toEqual([2, 3]);
    await context.close();

    // A visitor sees it on the pricing page with the vendor's icon and the description.
    const visitor = await newPage(browser, product.baseUrl);
    await visitor.page.goto('/pricing');
    const priced = visitor.page.getByRole('row', { name: new RegExp(MODEL) });
    await priced.locator('.vendor-icon[data-icon="deepseek-color"]').waitFor();
    expect(await priced.textContent()).toContain(DESCRIPTION);
    await snap(visitor.page, 'models-05-pricing');
    await visitor.context.close();
  });

  it('reads at 375 px in dark mode, on the models page and the pricing page', async () => {
    const { context, page } = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(page);
    await page.goto('/models');
    await page.getByTestId(`model-edit-${MODEL}`).waitFor();
    await page.locator('[data-testid="models-list"] .vendor-icon[data-icon="deepseek-color"]').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page, 'models-06-mobile-dark');
    await page.getByTestId(`model-edit-${MODEL}`).click();
    await page.getByTestId('model-save').waitFor();
    await snap(page, 'models-07-mobile-drawer', { fullPage: false });
    await page.goto('/pricing');
    await page.locator('.pricing-card .vendor-icon[data-icon="deepseek-color"]').waitFor();
    await snap(page, 'models-08-pricing-mobile-dark');
    await context.close();
  });
});
