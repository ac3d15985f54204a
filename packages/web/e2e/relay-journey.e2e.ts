import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { signIn } from './helpers/session.js';

describe('chat in the playground and find the call, with its price, in the usage log', () => {
  let product: Product;
  let browser: Browser;
  let journey: UpstreamJourney;
  let mock: MockUpstream;

  beforeAll(async () => {
    journey = await startUpstreamJourney();
    ({ product, browser, mock } = journey);
    const { api } = journey;
    await api('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: 'mock',
        key: 'sk-journey',
        base_url: mock.baseUrl,
        models: 'gpt-4o-mini,gpt-4o',
        group: 'default',
      },
    });
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('streams an answer in the playground, then the log shows the call billed by hand-computed quota', async () => {
    // gpt-4o: ratio 1.25, completion ratio 4 → (1000 + 500 × 4) × 1.25 = 3750 quota = $0.0075
    mock.setDefault('openai.chat', {
      kind: 'ok',
      text: 'Hello **world** from the mock',
      usage: { prompt: 1000, completion: 500 },
      chunkDelayMs: 20,
    });
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.getByRole('link', { name: '操练场' }).click();
    await page.waitForURL('**/playground');
    const model = page.getByTestId('playground-model');
    await model.click();
    await page.keyboard.type('gpt-4o');
    await page.getByTitle('gpt-4o', { exact: true }).click();
    await page.getByTestId('playground-input').fill('Say hello');
    await page.getByTestId('playground-send').click();
    const answer = page.locator('[data-role="assistant"][data-state="complete"]').last();
    await answer.waitFor({ timeout: 15_000 });
    expect(await answer.locator('strong').textContent()).toBe('world');
    await snap(page, 'relay-01-playground');
    const upstream = mock.requests.at(-1)!;
    expect(upstream.headers.authorization).toBe('Bearer sk-journey');
    expect((upstream.body as { model: string }).model).toBe('gpt-4o');

    await page.getByRole('link', { name: '使用日志' }).click();
    await page.waitForURL('**/log');
    const table = page.getByTestId('log-table');
    await table.getByText('gpt-4o', { exact: true }).first().waitFor();
    await table.getByText('$0.0075').first().waitFor();
    await page.getByTestId('log-stats').getByText('$0.0075').waitFor();
    await snap(page, 'relay-02-usage-log');
    await context.close();
  });
});
